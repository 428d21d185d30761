import type { EventTypeDefinition } from '../../platform/src/index.js';
import { ARRIVAL_EVENT_TYPES } from './domain/arrival.js';
import { HAZARD_EVENT_TYPES } from './domain/hazard.js';

/** Schema versions of the traffic context's stored events. */
export const trafficEventTypes: EventTypeDefinition[] = [...HAZARD_EVENT_TYPES, ...ARRIVAL_EVENT_TYPES].map((type) => ({ type, version: 1 }));
