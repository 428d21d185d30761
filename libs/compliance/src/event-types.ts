import type { EventTypeDefinition } from '../../platform/src/index.js';

/** Schema versions and upcasters of the compliance context's stored events. */
export const complianceEventTypes: EventTypeDefinition[] = [{ type: 'AuditCheckpointSigned', version: 1 }];
