// Public transit: GTFS feeds imported as reference data, RAPTOR itineraries, departure boards (docs/adr/0019).
export * from './transit.module.js';
export * from './manifest.js';
export { transitEventTypes } from './event-types.js';
export type { LoadedFeed } from './public/transit-feeds.js';
export { importGtfs, DEFAULT_TRANSIT_DATASET, TRANSIT_DATASET_GROUP, type GtfsImportOptions, type GtfsImportResult } from './public/import-gtfs.js';
export { GtfsImportError, type GtfsImportReport, type ImportProblem } from './public/import-report.js';
export { TransitNetwork } from './domain/network.js';
export { PlannerPool, type PlannerPoolOptions } from './public/planner-pool.js';
export { TransitBusyError } from './domain/errors.js';
export { planTrip, stopsNear, type Plan, type PlanRequest } from './domain/planner.js';
export { raptor, type Journey } from './domain/raptor.js';
export { departureBoard } from './domain/departures.js';
export { parseIsoDate, parseClockTime, parseGtfsTime } from './domain/clock-time.js';
export type { FeedRecord } from './domain/feed-records.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { transitContext } from './context.js';
