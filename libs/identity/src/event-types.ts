import type { EventTypeDefinition } from '../../platform/src/index.js';
import { DELIVERY_EVENT_TYPES } from './domain/delivery.js';
import { SIGNING_KEY_EVENT_TYPES } from './domain/signing-keys.js';
import { VERIFICATION_EVENT_TYPES } from './domain/verification.js';

/**
 * Schema versions and upcasters of the identity context's stored events
 * (fixtures in __fixtures__/). Verifications and delivery confirmations are
 * at version 2: stored sealed under the customer's data key (ADR 0054,
 * `sealing/identity-sealing.ts`), opened by the codec before upcasting. What
 * version 2 opens to is version 1's data as it was stored (clear, no upcaster
 * needed); a version-1 event has nothing to open. Readers that do not open
 * (the identity_signals projection, the relay) see version 2 sealed.
 */
export const identityEventTypes: EventTypeDefinition[] = [
  ...SIGNING_KEY_EVENT_TYPES.map((type) => ({ type, version: 1 })),
  ...[...VERIFICATION_EVENT_TYPES, ...DELIVERY_EVENT_TYPES].map((type) => ({ type, version: 2 })),
];
