import type { EventTypeDefinition } from '../../platform/src/index.js';
import { CAP_ALERT_EVENT_TYPES } from './domain/cap-alerts.js';

/** Schema versions of the weather context's stored events (fixture in __fixtures__/weather-events.v1.json). */
export const weatherEventTypes: EventTypeDefinition[] = CAP_ALERT_EVENT_TYPES.map((type) => ({ type, version: 1 }));
