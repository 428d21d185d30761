import type { Mode } from './domain/profiles.js';
import type { SurfaceClass } from './domain/profiles.js';

/**
 * The routing engine port (docs/adr/0018): the embedded engine (contraction
 * hierarchies over the imported road dataset, the default) and GraphHopper
 * (GRAPHHOPPER_URL) both answer paths in this shape; steps, landmark
 * narration, lanes, surfaces and the safer-route flags are built over it
 * (routes/route-builder.ts), the same for either engine.
 */
export interface LatLng {
  lat: number;
  lng: number;
}

/** What a path says about the road it is on, for one stretch. */
export interface RoadAttributes {
  name: string | null;
  ref: string | null;
  highway: string;
  surface: string | null;
  surface_class: SurfaceClass;
  smoothness: string | null;
  roundabout: boolean;
  lanes: number | null;
  /** `turn:lanes` for the direction travelled, where tagged. */
  turn_lanes: string | null;
  maxspeed_kmh: number | null;
  bridge: boolean;
  ford: boolean;
  flood_prone: boolean;
  /**
   * The tag that closes the road to a mode (`highway=motorway` for an okada), for the modes it is closed to:
   * `{}` when open to all. Absent when the engine cannot tell (GraphHopper): the road class's default decides.
   */
  closed_for?: Readonly<Partial<Record<Mode, string>>>;
}

/** A stretch of a path on one road: coordinates `from`..`to` (indices into the leg's coordinates). */
export interface PathSpan {
  from: number;
  to: number;
  distance_m: number;
  duration_s: number;
  road: RoadAttributes;
  /** The way the span belongs to (engine-specific id): same id, same road. */
  road_id: string;
  /** Other roads meeting the path at the span's first point (for "continue" against "turn"): -1 when unknown. */
  junction_degree: number;
}

export interface PathLeg {
  distance_m: number;
  duration_s: number;
  /** [lng, lat], GeoJSON order. */
  coordinates: Array<[number, number]>;
  spans: PathSpan[];
  snapped_from: LatLng;
  snapped_to: LatLng;
}

export interface EnginePath {
  distance_m: number;
  duration_s: number;
  legs: PathLeg[];
  /** Which layers of the road network (RoadNetworkInfo.layers indices) the path runs on; absent when the engine cannot tell (GraphHopper). */
  layers?: number[];
}

/**
 * Per-query changes to the static weights (issue #16 fills them from learned
 * traffic and corroborated hazards). An engine that cannot honour one says so
 * in `warnings` instead of failing the route.
 */
export interface RouteConstraints {
  /** Multiplier (≥ 1) of travel time on a stretch of road at a point of a class. */
  trafficFactor?: (lat: number, lng: number, highway: string) => number;
  /**
   * Which factors `trafficFactor` answers: the same `key` (an hour bucket),
   * the same factors until `version` changes (a new learned sample). With it
   * the embedded engine keeps a hierarchy customised for them (docs/adr/0025);
   * without it, factors of unknown identity take the edge-based A*.
   */
  trafficMetric?: { key: string; version: number };
  /** Circles no route may enter (a flooded crossing, a blocked road). */
  avoidAreas?: Array<LatLng & { radius_m: number }>;
  /** Safer routes (issue #16): no fords or flood-prone roads; unpaved roads cost UNPAVED_AVOID_FACTOR times their time. */
  avoidFloodCrossings?: boolean;
  avoidUnpaved?: boolean;
}

/** How much dearer an unpaved road is when a safer route avoids unpaved roads (a preference, not a ban: some places have no other way). */
export const UNPAVED_AVOID_FACTOR = 3;

export interface EngineRouteRequest {
  /** from, then via points, then to. */
  points: LatLng[];
  mode: Mode;
  /** Alternatives besides the best, 0–2. */
  alternatives: number;
  constraints?: RouteConstraints;
}

export interface EngineRouteResult {
  /** Best first. */
  paths: EnginePath[];
  warnings: string[];
  engine: string;
}

export interface RoutingEngine {
  readonly name: string;
  route(request: EngineRouteRequest): Promise<EngineRouteResult>;
}

export const ROUTING_ENGINE = Symbol('RoutingEngine');
