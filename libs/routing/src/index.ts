export { routingManifest } from './manifest.js';
export { RoutingModule, graphsRoot } from './routing.module.js';
export { importRoads, ROAD_DATASET } from './importers/import-roads.js';
export { RoadNetwork, prepareRoadGraph, type RoadNetworkInfo } from './road-network.js';
export { RoutePlanner, type RoutePlan, type PlanInput } from './route-planner.js';
export { IsochroneService, ISOCHRONE_MAX_MINUTES, ISOCHRONE_MIN_MINUTES, type Isochrone, type IsochroneRequest } from './isochrone/isochrone.js';
export { MODES, MODE_ALIASES, parseMode, type Mode } from './domain/profiles.js';
export { NoRoadNearbyError, NoRouteError, RoadNetworkNotLoadedError } from './domain/errors.js';
export { ROUTING_ENGINE, type RoutingEngine, type EngineRouteRequest, type EngineRouteResult, type LatLng, type RouteConstraints } from './routing-engine.port.js';
