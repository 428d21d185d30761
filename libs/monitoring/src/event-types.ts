import type { EventTypeDefinition } from '../../platform/src/index.js';
import { LOCATION_EVENT_TYPES } from './domain/location.js';
import { GEOFENCE_EVENT_TYPES } from './geofences/domain/geofence.js';

/** Schema versions and upcasters of the monitoring context's stored events. */
export const monitoringEventTypes: EventTypeDefinition[] = [
  { type: 'ConsentGranted', version: 1 },
  { type: 'ConsentRevoked', version: 1 },
  { type: 'CustomerDataErased', version: 1 },
  { type: 'ConsentRecordSealed', version: 1 },
  { type: 'ConsentNoticeRegistered', version: 1 },
  ...LOCATION_EVENT_TYPES.map((type) => ({ type, version: 1 })),
  ...GEOFENCE_EVENT_TYPES.map((type) => ({ type, version: 1 })),
];
