import { InvalidParamError } from '../../../platform/src/index.js';
import { parseMode, type Mode } from '../domain/profiles.js';
import type { RoadNetwork } from './road-network.js';
import { buildRoute, type BuiltRoute, type Narration } from '../routes/route-builder.js';
import type { LandmarkSource } from '../routes/landmark-narration.js';
import { greatCircleM, projectOnSegment } from '../../../platform/src/geo/geodesy.js';
import type { RoadConditionsSlot, RoadHazard } from '../road-conditions.port.js';
import type { EnginePath, EngineRouteResult, LatLng, RouteConstraints, RoutingEngine } from '../routing-engine.port.js';
import { noteRain, recommendSafer } from '../routes/safer-routes.js';
import { detourOf, detourWarning, straightLineM, worthComparing } from '../routes/detour.js';
import type { WeatherConditions } from '../weather-conditions.port.js';

/** A leg end moved farther than this onto the road is named in the route's warnings (issue 29, "Snapping tells the truth"). */
export const SNAP_WARNING_M = 100;

/** A hazard this close to a route's line counts in its incident_count and warnings (docs/adr/0025). */
export const INCIDENT_NEAR_ROUTE_M = 50;

export interface RoutePlan {
  mode: Mode;
  narration: Narration;
  route: BuiltRoute;
  alternatives: BuiltRoute[];
  engine: string;
  warnings: string[];
  datasets: Array<{ dataset: string; version: string; imported_at: string; attribution: string[] }>;
  attribution: string[];
}

export interface PlanInput {
  from: LatLng;
  to: LatLng;
  via?: LatLng[];
  mode?: unknown;
  narration?: Narration;
  alternatives?: number;
  avoid_incidents?: boolean;
  depart_at?: string;
  /**
   * Whether to say when the route is poor (routes/detour.ts; default true): it may cost the driving route as a
   * comparison. Callers that show no warnings (the static image, the landmarks along, the navigation feed) pass false.
   */
  detour?: boolean;
}

const OSM_ATTRIBUTION = '© OpenStreetMap contributors';

/**
 * One route request end to end: the engine's paths (embedded or GraphHopper,
 * through the port), then our layer over them: steps, landmark narration,
 * lanes, surfaces and the safer-route flags (routes/route-builder.ts).
 */
export class RoutePlanner {
  constructor(
    private readonly engine: RoutingEngine,
    private readonly network: RoadNetwork,
    private readonly landmarks: LandmarkSource | null,
    private readonly conditions: RoadConditionsSlot | null = null,
    private readonly weather: WeatherConditions | null = null,
  ) {}

  /** Per hazard list (the conditions keep answering the same list until it changes): the closures, one array, so the engine keeps its closed edges per array. */
  private readonly closures = new WeakMap<RoadHazard[], { blocking: RoadHazard[]; areas: Array<LatLng & { radius_m: number }> }>();

  private closuresOf(hazards: RoadHazard[]) {
    let closures = this.closures.get(hazards);
    if (!closures) {
      const blocking = hazards.filter((hazard) => hazard.blocks);
      closures = { blocking, areas: blocking.map((hazard) => ({ lat: hazard.lat, lng: hazard.lng, radius_m: hazard.radius_m })) };
      this.closures.set(hazards, closures);
    }
    return closures;
  }

  async plan(input: PlanInput): Promise<RoutePlan> {
    const mode = parseMode(input.mode);
    const alternatives = input.alternatives ?? 0;
    if (!Number.isInteger(alternatives) || alternatives < 0 || alternatives > 2) throw new InvalidParamError('alternatives must be an integer from 0 to 2 (or a boolean)', 'alternatives');
    const narration = input.narration ?? 'street';
    const conditions = this.conditions?.current ?? null;
    const at = departure(input.depart_at);
    const traffic = conditions?.hasTraffic() ? (lat: number, lng: number, highway: string) => conditions.trafficFactor(lat, lng, highway, at) : undefined;
    const hazards = conditions ? conditions.hazards(at) : [];
    const constraints: RouteConstraints = {};
    if (traffic) constraints.trafficFactor = (lat, lng, highway) => traffic(lat, lng, highway) ?? 1;
    const trafficMetric = traffic ? conditions?.trafficMetric?.(at) : undefined;
    if (trafficMetric) constraints.trafficMetric = trafficMetric;
    // Only corroborated flooding / road_blocked close roads (interface.md, POST /v2/route); everything else warns.
    const closures = input.avoid_incidents ? this.closuresOf(hazards) : null;
    const blocking = closures?.blocking ?? [];
    if (closures && blocking.length > 0) constraints.avoidAreas = closures.areas;
    const hasConstraints = constraints.trafficFactor !== undefined || constraints.avoidAreas !== undefined;
    const result: EngineRouteResult = await this.engine.route({ points: [input.from, ...(input.via ?? []), input.to], mode, alternatives, ...(hasConstraints ? { constraints } : {}) });
    const warnings = [...result.warnings];
    if (input.avoid_incidents && blocking.length > 0) warnings.push(`avoid_incidents: ${blocking.length} corroborated road closure(s) avoided`);
    const landmarks = narration === 'street' ? null : this.landmarks;
    const points = [input.from, ...(input.via ?? []), input.to];
    const names = points.map((_, i) => (i === 0 ? 'from' : i === points.length - 1 ? 'to' : `via[${i - 1}]`));
    const snapWarnings: string[] = [];
    const decorate = (path: EngineRouteResult['paths'][number]) => {
      const route = buildRoute(path, { mode, narration, landmarks, warnings, traffic });
      route.legs.forEach((leg, i) => {
        leg.snap_distance_from_m = Math.round(greatCircleM(points[i].lat, points[i].lng, leg.snapped_from.lat, leg.snapped_from.lng));
        leg.snap_distance_to_m = Math.round(greatCircleM(points[i + 1].lat, points[i + 1].lng, leg.snapped_to.lat, leg.snapped_to.lng));
      });
      const moved = route.legs.flatMap((leg, i) => [...(i === 0 ? [{ name: names[0], m: leg.snap_distance_from_m! }] : []), { name: names[i + 1], m: leg.snap_distance_to_m! }]);
      for (const { name, m } of moved) {
        if (m <= SNAP_WARNING_M) continue;
        const warning = `${name} was moved ${m} m to the nearest road a ${mode} route may use`;
        route.warnings.push(warning);
        if (!snapWarnings.includes(warning)) snapWarnings.push(warning);
      }
      const near = hazardsNear(hazards, route.geometry.coordinates);
      route.incident_count = near.length;
      for (const hazard of near) route.warnings.push(`${hazard.kind} reported near the route (${hazard.corroborations} report${hazard.corroborations === 1 ? '' : 's'})`);
      return route;
    };
    let [best, ...others] = result.paths.map(decorate);
    if (this.weather) {
      // Safer routes (issue #16, routes/safer-routes.ts): rain along each route, then the safer one when the fastest is wet.
      const weather = this.weather;
      for (const route of [best, ...others]) await noteRain(route, weather, at);
      const saferPath = async () => {
        const safer = await this.engine.route({ points: [input.from, ...(input.via ?? []), input.to], mode, alternatives: 0, constraints: { ...constraints, avoidFloodCrossings: true, avoidUnpaved: true } });
        const route = safer.paths[0] ? decorate(safer.paths[0]) : null;
        if (route) await noteRain(route, weather, at);
        return route;
      };
      const safer = await recommendSafer([best, ...others], weather, at, saferPath);
      [best, ...others] = safer.routes;
      if (safer.warning) {
        warnings.push(safer.warning);
        for (const route of safer.routes) route.warnings.push(safer.warning);
      }
    }
    warnings.push(...snapWarnings.filter((warning) => !warnings.includes(warning)));
    if (input.detour !== false) await this.noteDetours(points, mode, best, others, warnings);
    // The datasets the routes run on, each with its attribution (docs/adr/0035); an engine that cannot tell (GraphHopper) names every layer.
    const info = this.network.info;
    const used = new Set<number>();
    for (const path of result.paths) for (const layer of path.layers ?? info?.layers.map((_, i) => i) ?? []) used.add(layer);
    const datasets = (info?.layers ?? [])
      .filter((_, i) => used.has(i))
      .map((layer) => ({ dataset: layer.dataset, version: layer.version, imported_at: layer.imported_at, attribution: layer.attribution }));
    const attribution = [...new Set(datasets.flatMap((dataset) => dataset.attribution))];
    return {
      mode,
      narration,
      route: best,
      alternatives: others,
      engine: result.engine,
      warnings,
      datasets,
      attribution: attribution.length > 0 ? attribution : [OSM_ATTRIBUTION],
    };
  }

  /**
   * Routes that say when they are poor (issue 50, docs/adr/0061): each route
   * against the straight line through the points and, for a non-driving mode
   * already long against that line, against the driving route between the
   * same points (one more route computation, static weights, no
   * alternatives), whose roads closed to the mode name the reason.
   */
  private async noteDetours(points: LatLng[], mode: Mode, best: BuiltRoute, others: BuiltRoute[], warnings: string[]): Promise<void> {
    const routes = [best, ...others];
    const straight = straightLineM(points);
    const longest = Math.max(...routes.map((route) => route.distance_m));
    let driving: EnginePath | null = null;
    if (worthComparing(mode, longest, straight)) {
      // Advisory: a driving route that cannot be found (no car road near a footpath) leaves the straight line to judge by.
      driving = await this.engine.route({ points, mode: 'driving', alternatives: 0 }).then(
        (result) => result.paths[0] ?? null,
        () => null,
      );
    }
    for (const route of routes) {
      const detour = detourOf(route.distance_m, mode, straight, driving);
      if (!detour) continue;
      const warning = detourWarning(detour, mode);
      route.detour = detour;
      route.warnings.push(warning);
      if (route === best && !warnings.includes(warning)) warnings.push(warning);
    }
  }
}

function departure(departAt: string | undefined): Date {
  const parsed = departAt ? new Date(departAt) : null;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : new Date();
}

/** Points per chunk of a route's line when looking for hazards near it. */
const NEAR_CHUNK = 16;

/**
 * Hazards within reach of a route's line (INCIDENT_NEAR_ROUTE_M + their
 * radius), in the order of `hazards`: the line is cut into chunks of
 * NEAR_CHUNK segments with a bounding box each, so a hazard is projected only
 * onto the segments of the chunks whose box it comes near.
 */
function hazardsNear(hazards: RoadHazard[], line: Array<[number, number]>): RoadHazard[] {
  if (hazards.length === 0 || line.length === 0) return [];
  const segments = Math.max(1, line.length - 1);
  const chunks = Math.ceil(segments / NEAR_CHUNK);
  // Per chunk: min lat, max lat, min lng, max lng of its points (segments c·K … c·K+K−1, points up to c·K+K).
  const box = new Float64Array(4 * chunks);
  for (let c = 0; c < chunks; c++) {
    let minLat = Infinity;
    let maxLat = -Infinity;
    let minLng = Infinity;
    let maxLng = -Infinity;
    for (let i = c * NEAR_CHUNK, end = Math.min(line.length - 1, (c + 1) * NEAR_CHUNK); i <= end; i++) {
      const [lng, lat] = line[i];
      if (lat < minLat) minLat = lat;
      if (lat > maxLat) maxLat = lat;
      if (lng < minLng) minLng = lng;
      if (lng > maxLng) maxLng = lng;
    }
    box[4 * c] = minLat;
    box[4 * c + 1] = maxLat;
    box[4 * c + 2] = minLng;
    box[4 * c + 3] = maxLng;
  }
  // The whole line's box: most hazards are far from a route, and one test leaves them out.
  let minLat = Infinity;
  let maxLat = -Infinity;
  let minLng = Infinity;
  let maxLng = -Infinity;
  for (let c = 0; c < chunks; c++) {
    if (box[4 * c] < minLat) minLat = box[4 * c];
    if (box[4 * c + 1] > maxLat) maxLat = box[4 * c + 1];
    if (box[4 * c + 2] < minLng) minLng = box[4 * c + 2];
    if (box[4 * c + 3] > maxLng) maxLng = box[4 * c + 3];
  }
  return hazards.filter((hazard) => {
    const reach = INCIDENT_NEAR_ROUTE_M + hazard.radius_m;
    // A degree is at least 110 km of latitude and, below 60°, 55 km of longitude.
    const dLat = reach / 110_000;
    const dLng = reach / 55_000;
    if (hazard.lat < minLat - dLat || hazard.lat > maxLat + dLat || hazard.lng < minLng - dLng || hazard.lng > maxLng + dLng) return false;
    for (let c = 0; c < chunks; c++) {
      const b = 4 * c;
      if (hazard.lat < box[b] - dLat || hazard.lat > box[b + 1] + dLat || hazard.lng < box[b + 2] - dLng || hazard.lng > box[b + 3] + dLng) continue;
      for (let i = c * NEAR_CHUNK, end = Math.min(segments, (c + 1) * NEAR_CHUNK); i < end; i++) {
        const [aLng, aLat] = line[i];
        const [bLng, bLat] = line[Math.min(i + 1, line.length - 1)];
        if ((aLat < hazard.lat - dLat && bLat < hazard.lat - dLat) || (aLat > hazard.lat + dLat && bLat > hazard.lat + dLat)) continue;
        if ((aLng < hazard.lng - dLng && bLng < hazard.lng - dLng) || (aLng > hazard.lng + dLng && bLng > hazard.lng + dLng)) continue;
        if (projectOnSegment(hazard.lat, hazard.lng, aLat, aLng, bLat, bLng).distanceM <= reach) return true;
      }
    }
    return false;
  });
}
