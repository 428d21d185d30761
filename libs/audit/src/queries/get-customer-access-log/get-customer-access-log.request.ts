import { GetBankingAuditLogRequest } from '../access-log.request.js';

/** GET /v2/banking/audit-log/customers/{customer_id}: the banking audit log's filters (from, to, limit, cursor); the customer is in the path. */
export class GetCustomerAccessLogRequest extends GetBankingAuditLogRequest {}
