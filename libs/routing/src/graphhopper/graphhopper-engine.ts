import { NoRoadNearbyError, NoRouteError, RoutingEngineUnavailableError } from '../domain/errors.js';
import type { Mode, SurfaceClass } from '../domain/profiles.js';
import { haversineM } from '../engine/geo.js';
import { SNAP_RADIUS_M } from '../engine/loaded-network.js';
import type { EngineRouteRequest, EngineRouteResult, EnginePath, LatLng, PathLeg, PathSpan, RoutingEngine } from '../routing-engine.port.js';

/**
 * The GraphHopper adapter (GRAPHHOPPER_URL; docs/adr/0018): `GET /route` with
 * instructions off (our layer writes the steps) and path details for the
 * road attributes our steps need. GraphHopper's profiles are named for our
 * modes (car, scooter, bike, foot: `.ci/graphhopper/config.yml`).
 *
 * What it cannot honour, the answer says in `warnings`: per-query traffic
 * factors and blocked areas (GraphHopper's CH profiles take no per-request
 * weights), and the ford / flood-prone flags (not among its encoded values),
 * so `flood_crossings` counts none on its paths.
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
    const warnings: string[] = [];
    if (request.constraints?.trafficFactor) warnings.push('graphhopper: learned traffic factors are not applied by this engine');
    if (request.constraints?.avoidAreas?.length) warnings.push('graphhopper: blocked roads are not avoided by this engine');
    const url = new URL('route', this.baseUrl.endsWith('/') ? this.baseUrl : `${this.baseUrl}/`);
    for (const point of request.points) url.searchParams.append('point', `${point.lat},${point.lng}`);
    url.searchParams.set('profile', GRAPHHOPPER_PROFILES[request.mode]);
    url.searchParams.set('instructions', 'false');
    url.searchParams.set('points_encoded', 'false');
    url.searchParams.set('calc_points', 'true');
    for (const detail of DETAILS) url.searchParams.append('details', detail);
    if (request.alternatives > 0 && request.points.length === 2) {
      url.searchParams.set('algorithm', 'alternative_route');
      url.searchParams.set('alternative_route.max_paths', String(request.alternatives + 1));
    }
    let response: Response;
    try {
      response = await this.fetchImpl(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: 'application/json' } });
    } catch (error) {
      // The server's address stays out of the answer: it is deployment detail.
      throw new RoutingEngineUnavailableError(`the routing engine (GraphHopper) did not answer: ${error instanceof Error ? error.name : 'error'}`);
    }
    const body = (await response.json().catch(() => null)) as { paths?: GhPath[]; message?: string; hints?: Array<{ details?: string; point_index?: number }> } | null;
    if (!response.ok || !body?.paths) {
      const hint = body?.hints?.[0];
      if (/Point(NotFound|OutOfBounds)Exception$/.test(hint?.details ?? '') || /Cannot find point|out of bounds/.test(body?.message ?? '')) throw new NoRoadNearbyError(fieldOf(hint?.point_index ?? 0, request.points.length), request.mode, SNAP_RADIUS_M);
      if (hint?.details?.endsWith('ConnectionNotFoundException') || /Connection between locations not found/.test(body?.message ?? '')) throw new NoRouteError(request.mode, 0);
      throw new RoutingEngineUnavailableError(`the routing engine (GraphHopper) answered ${response.status}`);
    }
    const paths = body.paths.slice(0, request.alternatives + 1).map((path) => toPath(path, request));
    return { paths, warnings, engine: this.name };
  }
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
    if (asked && haversineM(asked.lat, asked.lng, lat, lng) > SNAP_RADIUS_M) throw new NoRoadNearbyError(fieldOf(i, request.points.length), request.mode, SNAP_RADIUS_M);
  });
  // Where the path passes each via point: the first coordinate index at (or nearest) the snapped point, in order.
  const cuts = [0];
  for (const [lng, lat] of snapped.slice(1, -1)) {
    let best = cuts[cuts.length - 1];
    let bestDistance = Infinity;
    for (let i = cuts[cuts.length - 1]; i < coordinates.length; i++) {
      const d = haversineM(lat, lng, coordinates[i][1], coordinates[i][0]);
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
      for (let i = from; i < to; i++) distance += haversineM(coordinates[i][1], coordinates[i][0], coordinates[i + 1][1], coordinates[i + 1][0]);
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
        for (let i = from; i < to; i++) intervalDistance += haversineM(coordinates[i][1], coordinates[i][0], coordinates[i + 1][1], coordinates[i + 1][0]);
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
