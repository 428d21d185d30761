import { InvalidParamError } from '../../platform/src/index.js';
import { parseMode, type Mode } from './domain/profiles.js';
import type { RoadNetwork } from './road-network.js';
import { buildRoute, type BuiltRoute, type Narration } from './routes/route-builder.js';
import type { LandmarkSource } from './routes/landmark-narration.js';
import type { EngineRouteResult, LatLng, RoutingEngine } from './routing-engine.port.js';
import { noteRain, recommendSafer } from './routes/safer-routes.js';
import type { WeatherConditions } from './weather-conditions.port.js';

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
    private readonly weather: WeatherConditions | null = null,
  ) {}

  async plan(input: PlanInput): Promise<RoutePlan> {
    const mode = parseMode(input.mode);
    const alternatives = input.alternatives ?? 0;
    if (!Number.isInteger(alternatives) || alternatives < 0 || alternatives > 2) throw new InvalidParamError('alternatives must be an integer from 0 to 2 (or a boolean)', 'alternatives');
    const narration = input.narration ?? 'street';
    const result: EngineRouteResult = await this.engine.route({ points: [input.from, ...(input.via ?? []), input.to], mode, alternatives });
    const warnings = [...result.warnings];
    // Hazard reports arrive with issue #16; until then there is nothing to avoid, and the answer says so.
    if (input.avoid_incidents) warnings.push('avoid_incidents: no road-hazard reports are available yet; the route is unchanged');
    const landmarks = narration === 'street' ? null : this.landmarks;
    let [best, ...others] = result.paths.map((path) => buildRoute(path, { mode, narration, landmarks, warnings }));
    if (this.weather) {
      // Safer routes (issue #16, routes/safer-routes.ts): rain along each route, then the safer one when the fastest is wet.
      const weather = this.weather;
      const departure = input.depart_at ? new Date(input.depart_at) : new Date();
      for (const route of [best, ...others]) await noteRain(route, weather, departure);
      const saferPath = async () => {
        const safer = await this.engine.route({ points: [input.from, ...(input.via ?? []), input.to], mode, alternatives: 0, constraints: { avoidFloodCrossings: true, avoidUnpaved: true } });
        const route = safer.paths[0] ? buildRoute(safer.paths[0], { mode, narration, landmarks, warnings }) : null;
        if (route) await noteRain(route, weather, departure);
        return route;
      };
      const safer = await recommendSafer([best, ...others], weather, departure, saferPath);
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
