import type { EventTypeDefinition } from '../../platform/src/index.js';

/** Schema versions and upcasters of the monitoring context's stored events. */
export const monitoringEventTypes: EventTypeDefinition[] = [
  { type: 'ConsentGranted', version: 1 },
  { type: 'ConsentRevoked', version: 1 },
];
