import type { EventTypeDefinition } from '../../platform/src/index.js';
import { ERASURE_EVENT_TYPES, POSITION_EVENT_TYPES } from './domain/position.js';
import { SHARE_EVENT_TYPES } from './domain/share.js';

/** Schema versions and upcasters of the locator context's stored events. */
export const locatorEventTypes: EventTypeDefinition[] = [...SHARE_EVENT_TYPES, ...POSITION_EVENT_TYPES, ...ERASURE_EVENT_TYPES].map((type) => ({ type, version: 1 }));
