// The geofences slice's public API (re-exported by the monitoring context's index.ts).
export { GeofencesModule } from './geofences.module.js';
export { GeofenceFeed } from './geofence-feed.js';
export { GEOFENCE_EVENT_TYPES, parseFenceGeometry, shapeOf, type FenceGeometry, type GeofenceCreated, type GeofenceDeleted, type GeofenceDefinition, type GeofenceEvent } from './domain/geofence.js';
export { GEOFENCE_READ_INDEXES, GEOFENCES_READ_MODEL, geofenceDoc, type GeofenceDoc, type GeofenceView } from './geofence-view.js';
// For zones defined like fences elsewhere (the banking context's collection zones).
export { type Shape } from './domain/geometry.js';
// The as-of replay (libs/compliance) folds geofence streams with this decider.
export { geofenceDecider, type GeofenceState } from './domain/geofence.js';
