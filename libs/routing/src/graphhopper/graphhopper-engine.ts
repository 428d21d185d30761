import { GH_UNPAVED_SURFACES } from './speed-model.js';
import { NoRoadNearbyError, NoRouteError, RoutingEngineUnavailableError } from '../domain/errors.js';
import type { Mode, SurfaceClass } from '../domain/profiles.js';
import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import { SNAP_RADIUS_M } from '../engine/loaded-network.js';
import { UNPAVED_AVOID_FACTOR, type EngineRouteRequest, type EngineRouteResult, type EnginePath, type LatLng, type PathLeg, type PathSpan, type RouteConstraints, type RoutingEngine } from '../routing-engine.port.js';

/**
 * The GraphHopper adapter (GRAPHHOPPER_URL; docs/adr/0018): `POST /route` with
 * instructions off (our layer writes the steps) and path details for the
 * road attributes our steps need. GraphHopper's profiles are named for our
 * modes (car, scooter, bike, foot: `.ci/graphhopper/config.yml`).
 *
 * The query's constraints become a per-request custom model (GraphHopper's
 * flexible mode, `ch.disable`: its CH profiles take no per-request weights):
 * blocked circles are polygons in `areas` with priority 0 inside, avoided
 * flood crossings are `road_environment == FORD` at priority 0, avoided
 * unpaved roads cost UNPAVED_AVOID_FACTOR times their weight (priority 1/3).
 * What it cannot honour, the answer says in `warnings`: per-query traffic
 * factors (a function of place and class, not a GraphHopper rule), and
 * flood-prone roads (not among its encoded values), so `flood_crossings`
 * counts none on its paths.
 */
export const GRAPHHOPPER_PROFILES: Record<Mode, string> = { driving: 'car', motor_scooter: 'scooter', bicycle: 'bike', walking: 'foot' };
const DETAILS = ['street_name', 'street_ref', 'road_class', 'surface', 'roundabout', 'max_speed', 'time', 'distance'];
const TIMEOUT_MS = 10_000;

const PAVED = new Set(['paved', 'asphalt', 'concrete', 'paving_stones', 'cobblestone', 'sett', 'wood']);
const UNPAVED = new Set(['unpaved', 'compacted', 'fine_gravel', 'gravel', 'ground', 'dirt', 'grass', 'sand', 'pebblestone']);

interface GhPath {
  distance: number;
  time: number;
  points: { coordinates: Array<[number, number]> };
  snapped_waypoints: { coordinates: Array<[number, number]> };
  details: Record<string, Array<[number, number, unknown]>>;
}

export class GraphHopperEngine implements RoutingEngine {
  readonly name = 'graphhopper';

  constructor(
    readonly baseUrl: string,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  async route(request: EngineRouteRequest): Promise<EngineRouteResult> {
    const url = new URL('route', this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    const { model, warnings } = customModelOf(request.constraints);
    const body: Record<string, unknown> = {
      points: request.points.map((point) => [point.lng, point.lat]),
      profile: GRAPHHOPPER_PROFILES[request.mode],
      instructions: false,
      points_encoded: false,
      calc_points: true,
      details: DETAILS,
    };
    if (model) Object.assign(body, { 'ch.disable': true, custom_model: model });
    if (request.alternatives > 0 && request.points.length === 2) Object.assign(body, { algorithm: 'alternative_route', 'alternative_route.max_paths': request.alternatives + 1 });
    let response: Response;
    try {
      response = await this.fetchImpl(url, { method: 'POST', body: JSON.stringify(body), signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'application/json', 'content-type': 'application/json' } });
    } catch (error) {
      // The server's address stays out of the answer: it is deployment detail.
      throw new RoutingEngineUnavailableError(`the routing engine (GraphHopper) did not answer: ${error instanceof Error ? error.name : 'error'}`);
    }
    const answer = (await response.json().catch(() => null)) as { paths?: GhPath[]; message?: string; hints?: Array<{ details?: string; point_index?: number }> } | null;
    if (!response.ok || !answer?.paths) {
      const hint = answer?.hints?.[0];
      if (/Point(NotFound|OutOfBounds)Exception$/.test(hint?.details ?? '') || /Cannot find point|out of bounds/.test(answer?.message ?? '')) throw new NoRoadNearbyError(fieldOf(hint?.point_index ?? 0, request.points.length), request.mode, SNAP_RADIUS_M);
      if (hint?.details?.endsWith('ConnectionNotFoundException') || /Connection between locations not found/.test(answer?.message ?? '')) throw new NoRouteError(request.mode, 0);
      throw new RoutingEngineUnavailableError(`the routing engine (GraphHopper) answered ${response.status}`);
    }
    const paths = answer.paths.slice(0, request.alternatives + 1).map((path) => toPath(path, request));
    return { paths, warnings, engine: this.name };
  }
}

const GH_UNPAVED = GH_UNPAVED_SURFACES;
/** Vertices of the polygon standing for a blocked circle. */
const CIRCLE_VERTICES = 16;

interface CustomModel {
  priority: Array<{ if: string; multiply_by: string }>;
  areas?: { type: 'FeatureCollection'; features: Array<{ type: 'Feature'; id: string; properties: Record<string, never>; geometry: { type: 'Polygon'; coordinates: Array<Array<[number, number]>> } }> };
}

/** A query's constraints as a GraphHopper custom model (null when none applies), and what it cannot say. */
export function customModelOf(constraints: RouteConstraints | undefined): { model: CustomModel | null; warnings: string[] } {
  const warnings: string[] = [];
  if (!constraints) return { model: null, warnings };
  if (constraints.trafficFactor) warnings.push('graphhopper: learned traffic factors are not applied by this engine');
  const priority: CustomModel['priority'] = [];
  const areas = constraints.avoidAreas ?? [];
  areas.forEach((_, i) => priority.push({ if: `in_blocked_${i}`, multiply_by: '0' }));
  if (constraints.avoidFloodCrossings) {
    priority.push({ if: 'road_environment == FORD', multiply_by: '0' });
    warnings.push('graphhopper: flood-prone roads are not known to this engine; only fords are avoided');
  }
  if (constraints.avoidUnpaved) {
    // As domain/profiles.ts: an unpaved surface, else an untagged track or a track graded below 1.
    const unpaved = [...GH_UNPAVED.map((value) => `surface == ${value}`), 'surface == MISSING && (road_class == TRACK || (track_type != MISSING && track_type != GRADE1))'];
    priority.push({ if: unpaved.join(' || '), multiply_by: String(1 / UNPAVED_AVOID_FACTOR) });
  }
  if (priority.length === 0) return { model: null, warnings };
  const model: CustomModel = { priority };
  if (areas.length > 0) model.areas = { type: 'FeatureCollection', features: areas.map((area, i) => ({ type: 'Feature', id: `blocked_${i}`, properties: {}, geometry: { type: 'Polygon', coordinates: [circlePolygon(area.lat, area.lng, area.radius_m)] } })) };
  return { model, warnings };
}

/** A closed ring of [lng, lat] around a circle (circumscribed: the whole circle is inside). */
function circlePolygon(lat: number, lng: number, radiusM: number): Array<[number, number]> {
  const outer = radiusM / Math.cos(Math.PI / CIRCLE_VERTICES);
  const dLat = outer / 111_195;
  const dLng = outer / (111_195 * Math.max(Math.cos((lat * Math.PI) / 180), 0.01));
  const ring: Array<[number, number]> = [];
  for (let k = 0; k < CIRCLE_VERTICES; k++) {
    const angle = (2 * Math.PI * k) / CIRCLE_VERTICES;
    ring.push([lng + dLng * Math.cos(angle), lat + dLat * Math.sin(angle)]);
  }
  ring.push(ring[0]);
  return ring;
}

function fieldOf(index: number, count: number): string {
  return index === 0 ? 'from' : index === count - 1 ? 'to' : `via[${index - 1}]`;
}

/** A GraphHopper path as ours: legs split at the snapped via points, spans where any path detail changes. */
function toPath(path: GhPath, request: EngineRouteRequest): EnginePath {
  const coordinates = path.points.coordinates.map(([lng, lat]) => [lng, lat] as [number, number]);
  const snapped = path.snapped_waypoints.coordinates;
  snapped.forEach(([lng, lat], i) => {
    const asked = request.points[i];
    if (asked && greatCircleM(asked.lat, asked.lng, lat, lng) > SNAP_RADIUS_M) throw new NoRoadNearbyError(fieldOf(i, request.points.length), request.mode, SNAP_RADIUS_M);
  });
  // Where the path passes each via point: the first coordinate index at (or nearest) the snapped point, in order.
  const cuts = [0];
  for (const [lng, lat] of snapped.slice(1, -1)) {
    let best = cuts[cuts.length - 1];
    let bestDistance = Infinity;
    for (let i = cuts[cuts.length - 1]; i < coordinates.length; i++) {
      const d = greatCircleM(lat, lng, coordinates[i][1], coordinates[i][0]);
      if (d < bestDistance) [best, bestDistance] = [i, d];
    }
    cuts.push(best);
  }
  cuts.push(coordinates.length - 1);
  const boundaries = new Set<number>([0, coordinates.length - 1, ...cuts]);
  for (const name of DETAILS) for (const [from, to] of path.details[name] ?? []) boundaries.add(from).add(to);
  const sorted = [...boundaries].sort((a, b) => a - b);
  const valueAt = (name: string, index: number): unknown => (path.details[name] ?? []).find(([from, to]) => from <= index && index < to)?.[2] ?? null;
  const legs: PathLeg[] = [];
  for (let leg = 0; leg + 1 < cuts.length; leg++) {
    const start = cuts[leg];
    const end = cuts[leg + 1];
    const spans: PathSpan[] = [];
    const points = sorted.filter((index) => index >= start && index <= end);
    for (let k = 0; k + 1 < points.length; k++) {
      const from = points[k];
      const to = points[k + 1];
      let distance = 0;
      for (let i = from; i < to; i++) distance += greatCircleM(coordinates[i][1], coordinates[i][0], coordinates[i + 1][1], coordinates[i + 1][0]);
      const surface = String(valueAt('surface', from) ?? 'missing');
      const roadClass = String(valueAt('road_class', from) ?? 'OTHER').toLowerCase();
      spans.push({
        from: from - start,
        to: to - start,
        distance_m: distance,
        duration_s: 0,
        road_id: `gh:${String(valueAt('street_name', from) ?? '')}|${roadClass}`,
        junction_degree: -1,
        road: {
          name: (valueAt('street_name', from) as string | null) || null,
          ref: (valueAt('street_ref', from) as string | null) || null,
          highway: roadClass,
          surface: surface === 'missing' || surface === 'other' ? null : surface,
          surface_class: surfaceClassOf(surface),
          smoothness: null,
          roundabout: valueAt('roundabout', from) === true,
          lanes: null,
          turn_lanes: null,
          maxspeed_kmh: typeof valueAt('max_speed', from) === 'number' && Number.isFinite(valueAt('max_speed', from)) ? (valueAt('max_speed', from) as number) : null,
          bridge: false,
          ford: false,
          flood_prone: false,
        },
      });
    }
    legs.push({ distance_m: 0, duration_s: 0, coordinates: coordinates.slice(start, end + 1), spans, snapped_from: latLngOf(snapped[leg]), snapped_to: latLngOf(snapped[leg + 1]) });
  }
  // Time per span from the `time` detail (milliseconds per interval), shared out by distance inside an interval.
  const timeIntervals = path.details.time ?? [];
  const totalDistance = legs.reduce((sum, leg) => sum + leg.spans.reduce((s, span) => s + span.distance_m, 0), 0);
  for (const [legIndex, leg] of legs.entries()) {
    const offset = cuts[legIndex];
    for (const span of leg.spans) {
      const interval = timeIntervals.find(([from, to]) => from <= span.from + offset && span.from + offset < to);
      if (interval) {
        const [from, to, ms] = interval;
        let intervalDistance = 0;
        for (let i = from; i < to; i++) intervalDistance += greatCircleM(coordinates[i][1], coordinates[i][0], coordinates[i + 1][1], coordinates[i + 1][0]);
        span.duration_s = intervalDistance > 0 ? ((ms as number) / 1000) * (span.distance_m / intervalDistance) : 0;
      } else span.duration_s = totalDistance > 0 ? (path.time / 1000) * (span.distance_m / totalDistance) : 0;
    }
    leg.distance_m = leg.spans.reduce((sum, span) => sum + span.distance_m, 0);
    leg.duration_s = leg.spans.reduce((sum, span) => sum + span.duration_s, 0);
  }
  return { distance_m: path.distance, duration_s: path.time / 1000, legs };
}

function latLngOf(point: [number, number] | undefined): LatLng {
  return point ? { lat: point[1], lng: point[0] } : { lat: 0, lng: 0 };
}

function surfaceClassOf(surface: string): SurfaceClass {
  if (PAVED.has(surface)) return 'paved';
  if (UNPAVED.has(surface)) return 'unpaved';
  return 'unknown';
}
