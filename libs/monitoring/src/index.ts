// The monitoring context's public API: domain types, the module, the manifest, its ports and public/ (style.md,
// "Between contexts"). Its sealing, pseudonyms, codecs and caches stay inside: other contexts read a customer's
// location through the CustomerLocations port.
export * from './domain/consent.js';
export * from './event-types.js';
export * from './monitoring.module.js';
export * from './monitoring-notifications.js';
export * from './domain/location.js';
export * from './public/customer-locations.port.js';
export * from './public/read-models.js';
export { FenceIndex, type FenceHit } from './geofences/fence-index.js';
export * from './geofences/index.js';
export * from './manifest.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { monitoringContext } from './context.js';
