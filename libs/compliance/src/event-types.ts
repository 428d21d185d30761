import type { EventTypeDefinition } from '../../platform/src/index.js';

/** Schema versions and upcasters of the compliance context's stored events. */
export const complianceEventTypes: EventTypeDefinition[] = [
  { type: 'AuditCheckpointSigned', version: 1 },
  // The archive job's lease and run log (docs/adr/0024).
  { type: 'AuditRetentionLeaseTaken', version: 1 },
  { type: 'AuditRetentionLeaseRenewed', version: 1 },
  { type: 'AuditRetentionRunEnded', version: 1 },
];
