import type { EventTypeDefinition } from '../../platform/src/index.js';
import { DELIVERY_EVENT_TYPES } from './domain/delivery.js';
import { SIGNING_KEY_EVENT_TYPES } from './domain/signing-keys.js';
import { VERIFICATION_EVENT_TYPES } from './domain/verification.js';

/** Schema versions and upcasters of the identity context's stored events (fixtures in __fixtures__/). */
export const identityEventTypes: EventTypeDefinition[] = [...SIGNING_KEY_EVENT_TYPES, ...VERIFICATION_EVENT_TYPES, ...DELIVERY_EVENT_TYPES].map((type) => ({ type, version: 1 }));
