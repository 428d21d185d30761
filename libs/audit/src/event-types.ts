import type { EventTypeDefinition } from '../../platform/src/index.js';

/** Schema versions and upcasters of the audit context's stored events. */
export const auditEventTypes: EventTypeDefinition[] = [{ type: 'ApiAccessRecorded', version: 1 }];
