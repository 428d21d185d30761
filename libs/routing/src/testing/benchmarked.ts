// What bench/ measures inside this context (docs/adr/0066): bench reaches a context through its index.ts or its
// testing helpers, as test/ does (rule bench-through-index), so an internal a benchmark times is named here and
// nowhere in the contract. Production code may not import it (testing-stays-in-tests).
export { PlanRouteAnswerSchema } from '../queries/plan-route/plan-route.answer.js';
export type { RoadRecord } from '../domain/road-records.js';
export { combineLayers } from '../engine/layers.js';
export { contract, HierarchyQuery } from '../engine/contraction.js';
export { arcsOf } from '../engine/prepare.js';
export { buildRoadGraph } from '../engine/road-graph.js';
export { dijkstraCost } from '../engine/search.js';
export { closeIslands } from '../engine/components.js';
export { contractsInFull } from '../engine/customisable.js';
export { EmbeddedEngine } from '../engine/embedded-engine.js';
export { RoutePlanner } from '../public/route-planner.js';
export { liveRoadLayers } from '../public/road-network.js';
