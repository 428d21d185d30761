export { routingManifest } from './manifest.js';
export { RoutingModule } from './routing.module.js';
export { AICD_ATTRIBUTION, BACKBONE_DATASET, EXTRACT_GROUP, importRoads, ROAD_DATASET } from './public/import-roads.js';
export { RoadNetwork, type RoadLayerInfo, type RoadNetworkInfo } from './public/road-network.js';
export { IsochroneService, ISOCHRONE_MAX_MINUTES, ISOCHRONE_MIN_MINUTES, type Isochrone, type IsochroneRequest } from './public/isochrone.js';
export { ISOCHRONES, type Isochrones } from './isochrones.port.js';
export { MODES, MODE_ALIASES, parseMode, type Mode } from './domain/profiles.js';
export { NoRoadNearbyError, NoRouteError, RoadNetworkNotLoadedError } from './domain/errors.js';
export { ROUTING_ENGINE, type RoutingEngine, type EngineRouteRequest, type EngineRouteResult, type LatLng, type RouteConstraints } from './routing-engine.port.js';
export { RoadConditionsSlot, type RoadConditions, type RoadHazard } from './road-conditions.port.js';
export { TRAFFIC_LEVELS, trafficLevel } from './domain/traffic-levels.js';
export { WEATHER_CONDITIONS, type WeatherConditions } from './weather-conditions.port.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { routingContext } from './context.js';
