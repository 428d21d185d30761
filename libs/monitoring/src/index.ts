// The monitoring context's public API: domain types, the module, the manifest, its ports and public/ (style.md,
// "Between contexts"). Its sealing, pseudonyms, codecs and caches stay inside: other contexts read a customer's
// location through the CustomerLocations port.
export * from './domain/consent.js';
export * from './event-types.js';
export * from './monitoring.module.js';
export * from './domain/location.js';
export * from './public/customer-locations.port.js';
export * from './public/customer-pseudonyms.port.js';
export * from './public/consent-receipts.port.js';
export * from './public/consent-commands.js';
export { CONSENT_RECEIPT_TYP, KANTARA_VERSION, type ConsentReceiptClaims } from './domain/consent-receipt.js';
export * from './public/read-models.js';
export { FenceIndex, type FenceHit } from './geofences/public/fence-index.js';
// The geofences slice: its module, its domain, the read model the geofences projection writes.
export { GeofencesModule } from './geofences/geofences.module.js';
export { GEOFENCE_EVENT_TYPES, parseFenceGeometry, shapeOf, type FenceGeometry, type GeofenceCreated, type GeofenceDeleted, type GeofenceDefinition, type GeofenceEvent } from './geofences/domain/geofence.js';
export { GEOFENCE_READ_INDEXES, GEOFENCES_READ_MODEL, geofenceDoc, type GeofenceDoc, type GeofenceView } from './geofences/public/geofence-view.js';
// For zones defined like fences elsewhere (the banking context's collection zones).
export { type Shape } from './geofences/domain/geometry.js';
// The as-of replay (libs/compliance) folds geofence streams with this decider.
export { geofenceDecider, type GeofenceState } from './geofences/domain/geofence.js';
export * from './manifest.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { monitoringContext } from './context.js';
