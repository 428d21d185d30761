import type { ContextManifest } from '../../platform/src/index.js';
import { complianceEventTypes } from './event-types.js';
import { ExportAuditBundleQuery } from './queries/export-audit-bundle/export-audit-bundle.handler.js';
import { GetCustomerCopyQuery } from './queries/get-customer-copy/get-customer-copy.handler.js';
import { GetAccountChangesQuery } from './queries/get-account-changes/get-account-changes.handler.js';
import { GetAccountAsOfQuery } from './queries/get-account-as-of/get-account-as-of.handler.js';

/**
 * What the compliance context brings to a process. Its one stored event,
 * the signed checkpoint, is appended by the checkpoint round itself (one
 * append per interval with the expected revision it read), not a command:
 * there is no decision to make beyond "which chains moved".
 */
export const complianceManifest: ContextManifest = {
  name: 'compliance',
  events: complianceEventTypes,
  commands: [],
  queries: [GetAccountAsOfQuery, GetAccountChangesQuery, GetCustomerCopyQuery, ExportAuditBundleQuery],
};
