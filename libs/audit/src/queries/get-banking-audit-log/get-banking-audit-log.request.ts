import { OmitType } from '@nestjs/swagger';
import { GetAdminAuditRequest } from '../get-admin-audit/get-admin-audit.request.js';

/** GET /v2/banking/audit-log: the admin filters, without choosing the account (it is the caller's). */
export class GetBankingAuditLogRequest extends OmitType(GetAdminAuditRequest, ['account_id'] as const) {}
