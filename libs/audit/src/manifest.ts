import type { ContextManifest } from '../../platform/src/index.js';
import { auditEventTypes } from './event-types.js';
import { GetAdminAuditQuery } from './queries/get-admin-audit/get-admin-audit.handler.js';
import { GetBankingAuditLogQuery } from './queries/get-banking-audit-log/get-banking-audit-log.handler.js';
import { GetCustomerAccessLogQuery } from './queries/get-customer-access-log/get-customer-access-log.handler.js';

/**
 * What the audit context brings to a process (checked at start-up). No
 * commands: the access recorder appends hash-chained entries in group commits
 * (ADR 4), linking each batch onto the chain head itself; a load → decide →
 * append per request would put one round trip and one fsync on every answer.
 */
export const auditManifest: ContextManifest = {
  name: 'audit',
  events: auditEventTypes,
  commands: [],
  queries: [GetAdminAuditQuery, GetBankingAuditLogQuery, GetCustomerAccessLogQuery],
  readModels: { projections: ['access_log'] },
};
