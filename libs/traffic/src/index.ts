// The traffic context's public API: what the apps, benchmarks and tests use.
export {
  HAZARD_KINDS,
  HAZARD_LIFETIME_H,
  HAZARD_MERGE_RADIUS_M,
  HAZARD_BLOCK_RADIUS_M,
  HAZARD_BLOCK_CORROBORATIONS,
  HAZARD_NOTE_MAX,
  HAZARD_EVENT_TYPES,
  hazardStream,
  isHazardKind,
  hazardReportDecider,
  blocksRoads,
  type HazardKind,
  type HazardReported,
  type HazardEvent,
  type ReportHazard,
  type HazardReportState,
  type Incident,
  type IncidentBoard,
} from './domain/hazard.js';
export * from './domain/arrival.js';
export {
  LEARNED_HALF_LIFE_DAYS,
  ACCURACY_WINDOW_DAYS,
  BUCKETS,
  MIN_FACTOR,
  MAX_FACTOR,
  MIN_SAMPLES,
  MIN_REPORTERS,
  REPORTER_WEIGHT_CAP,
  PRIOR_WEIGHT,
  PRIOR,
  LEGACY_REPORTER,
  ROAD_CLASSES,
  bucketOf,
  type SampleInput,
  type CellEstimate,
  type Evaluation,
  type LearnedTraffic,
} from './domain/learned-traffic.js';
export * from './event-types.js';
export { TRAFFIC_CELL_RES, ARRIVAL_CELL_RES } from './public/traffic-view.js';
export * from './traffic.module.js';
export * from './manifest.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { trafficContext } from './context.js';
