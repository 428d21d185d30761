import type { EventTypeDefinition } from '../../platform/src/index.js';
import { LANDMARK_EVENT_TYPES } from './landmarks/domain/landmark-reports.js';

/** Schema versions and upcasters of the places context's stored events: only what people do with places (reference data is not events). */
export const placesEventTypes: EventTypeDefinition[] = LANDMARK_EVENT_TYPES.map((type) => ({ type, version: 1 }));
