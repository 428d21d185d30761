import { InvalidParamError } from '../../platform/src/index.js';
import { parseMode, type Mode } from './domain/profiles.js';
import type { RoadNetwork } from './road-network.js';
import { buildRoute, type BuiltRoute, type Narration } from './routes/route-builder.js';
import type { LandmarkSource } from './routes/landmark-narration.js';
import { haversineM, projectOnSegment } from './engine/geo.js';
import type { RoadConditionsSlot, RoadHazard } from './road-conditions.port.js';
import type { EngineRouteResult, LatLng, RouteConstraints, RoutingEngine } from './routing-engine.port.js';
import { noteRain, recommendSafer } from './routes/safer-routes.js';
import type { WeatherConditions } from './weather-conditions.port.js';

/** A hazard this close to a route's line counts in its incident_count and warnings (docs/adr/0025). */
export const INCIDENT_NEAR_ROUTE_M = 50;

export interface RoutePlan {
  mode: Mode;
  narration: Narration;
  route: BuiltRoute;
  alternatives: BuiltRoute[];
  engine: string;
  warnings: string[];
  datasets: Array<{ dataset: string; version: string; imported_at: string }>;
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
    const blocking = input.avoid_incidents ? hazards.filter((hazard) => hazard.blocks) : [];
    if (blocking.length > 0) constraints.avoidAreas = blocking.map((hazard) => ({ lat: hazard.lat, lng: hazard.lng, radius_m: hazard.radius_m }));
    const hasConstraints = constraints.trafficFactor !== undefined || constraints.avoidAreas !== undefined;
    const result: EngineRouteResult = await this.engine.route({ points: [input.from, ...(input.via ?? []), input.to], mode, alternatives, ...(hasConstraints ? { constraints } : {}) });
    const warnings = [...result.warnings];
    if (input.avoid_incidents && blocking.length > 0) warnings.push(`avoid_incidents: ${blocking.length} corroborated road closure(s) avoided`);
    const landmarks = narration === 'street' ? null : this.landmarks;
    const decorate = (path: EngineRouteResult['paths'][number]) => {
      const route = buildRoute(path, { mode, narration, landmarks, warnings, traffic });
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
    const info = this.network.info;
    return {
      mode,
      narration,
      route: best,
      alternatives: others,
      engine: result.engine,
      warnings,
      datasets: info ? [{ dataset: info.dataset, version: info.version, imported_at: info.imported_at }] : [],
      attribution: [OSM_ATTRIBUTION],
    };
  }
}

function departure(departAt: string | undefined): Date {
  const parsed = departAt ? new Date(departAt) : null;
  return parsed && !Number.isNaN(parsed.getTime()) ? parsed : new Date();
}

/** Hazards within reach of a route's line: a box around the line first, then segment by segment (a box test before each projection). */
function hazardsNear(hazards: RoadHazard[], line: Array<[number, number]>): RoadHazard[] {
  if (hazards.length === 0 || line.length === 0) return [];
  let minLat = Infinity;
  let maxLat = -Infinity;
  let minLng = Infinity;
  let maxLng = -Infinity;
  for (const [lng, lat] of line) {
    if (lat < minLat) minLat = lat;
    if (lat > maxLat) maxLat = lat;
    if (lng < minLng) minLng = lng;
    if (lng > maxLng) maxLng = lng;
  }
  return hazards.filter((hazard) => {
    const reach = INCIDENT_NEAR_ROUTE_M + hazard.radius_m;
    // A degree is at least 110 km of latitude and, below 60°, 55 km of longitude.
    const dLat = reach / 110_000;
    const dLng = reach / 55_000;
    if (hazard.lat < minLat - dLat || hazard.lat > maxLat + dLat || hazard.lng < minLng - dLng || hazard.lng > maxLng + dLng) return false;
    return nearLine(hazard, line, reach, dLat, dLng);
  });
}

function nearLine(hazard: RoadHazard, line: Array<[number, number]>, reach: number, dLat: number, dLng: number): boolean {
  const far = (lat: number, lng: number) => Math.abs(lat - hazard.lat) > dLat || Math.abs(lng - hazard.lng) > dLng;
  if (line.length === 1) return !far(line[0][1], line[0][0]) && haversineM(hazard.lat, hazard.lng, line[0][1], line[0][0]) <= reach;
  for (let i = 1; i < line.length; i++) {
    const [aLng, aLat] = line[i - 1];
    const [bLng, bLat] = line[i];
    // Both ends beyond the reach on the same side: the segment cannot come near.
    if ((aLat < hazard.lat - dLat && bLat < hazard.lat - dLat) || (aLat > hazard.lat + dLat && bLat > hazard.lat + dLat)) continue;
    if ((aLng < hazard.lng - dLng && bLng < hazard.lng - dLng) || (aLng > hazard.lng + dLng && bLng > hazard.lng + dLng)) continue;
    if (projectOnSegment(hazard.lat, hazard.lng, aLat, aLng, bLat, bLng).distanceM <= reach) return true;
  }
  return false;
}
