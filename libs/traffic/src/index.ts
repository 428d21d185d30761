// The traffic context's public API: what the apps, benchmarks and tests use.
export * from './domain/hazard.js';
export * from './domain/arrival.js';
export * from './domain/learned-traffic.js';
export * from './event-types.js';
export { TrafficView, applyArrival, TRAFFIC_CELL_RES, ARRIVAL_CELL_RES } from './public/traffic-view.js';
export * from './traffic.module.js';
export * from './manifest.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { trafficContext } from './context.js';
