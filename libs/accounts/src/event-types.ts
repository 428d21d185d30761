import type { EventTypeDefinition } from '../../platform/src/index.js';

/** Schema versions and upcasters of the accounts context's stored events. */
export const accountsEventTypes: EventTypeDefinition[] = [
  { type: 'ApiKeyIssued', version: 1 },
  { type: 'ApiKeyRevoked', version: 1 },
];
