// The geofences slice's public API (re-exported by the monitoring context's index.ts).
export { GeofencesModule } from './geofences.module.js';
export { GeofenceFeed } from './geofence-feed.js';
export { GEOFENCE_EVENT_TYPES, shapeOf, type GeofenceCreated, type GeofenceDeleted, type GeofenceDefinition, type GeofenceEvent } from './domain/geofence.js';
export { GEOFENCE_READ_INDEXES, GEOFENCES_READ_MODEL, geofenceDoc, type GeofenceDoc, type GeofenceView } from './geofence-view.js';
// The as-of replay (libs/compliance) folds geofence streams with this decider.
export { geofenceDecider, type GeofenceState } from './domain/geofence.js';
