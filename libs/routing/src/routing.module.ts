import path from 'node:path';
import { Inject, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { Landmarks, PlacesModule } from '../../places/src/index.js';
import { CONFIG, DATASET_STORE, JsonLogger, Readiness, type Config, type DatasetStore } from '../../platform/src/index.js';
import { EmbeddedEngine } from './engine/embedded-engine.js';
import { GraphHopperEngine } from './graphhopper/graphhopper-engine.js';
import { ISOCHRONES } from './isochrones.port.js';
import { IsochroneService } from './public/isochrone.js';
import { NavigateRouteController } from './queries/navigate-route/navigate-route.controller.js';
import { NavigateRouteHandler } from './queries/navigate-route/navigate-route.handler.js';
import { PlanRouteController } from './queries/plan-route/plan-route.controller.js';
import { PlanRouteHandler } from './queries/plan-route/plan-route.handler.js';
import { RouteAlongController } from './queries/route-along/route-along.controller.js';
import { RouteAlongHandler } from './queries/route-along/route-along.handler.js';
import { StaticRouteController } from './queries/static-route/static-route.controller.js';
import { StaticRouteHandler } from './queries/static-route/static-route.handler.js';
import { RoadNetwork } from './public/road-network.js';
import { RoutePlanner } from './public/route-planner.js';
import { RoadConditionsSlot } from './road-conditions.port.js';
import { ROUTING_ENGINE, type RoutingEngine } from './routing-engine.port.js';
import { WEATHER_CONDITIONS, type WeatherConditions } from './weather-conditions.port.js';

/** Where prepared graphs live: one file per road dataset version (docs/adr/0018). */
export function graphsRoot(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'routing', 'graphs');
}

export const routingProviders = [
  {
    provide: RoadNetwork,
    inject: [CONFIG, DATASET_STORE, JsonLogger],
    useFactory: (config: Config, store: DatasetStore, logger: JsonLogger) =>
      new RoadNetwork(store, graphsRoot(config), { info: (fields) => logger.info(fields), error: (fields) => logger.error(fields, 'routing') }),
  },
  { provide: EmbeddedEngine, inject: [RoadNetwork], useFactory: (network: RoadNetwork) => new EmbeddedEngine(() => network.current()) },
  {
    provide: ROUTING_ENGINE,
    inject: [CONFIG, EmbeddedEngine],
    useFactory: (config: Config, embedded: EmbeddedEngine): RoutingEngine => (config.graphhopperUrl ? new GraphHopperEngine(config.graphhopperUrl) : embedded),
  },
  {
    provide: RoutePlanner,
    inject: [ROUTING_ENGINE, RoadNetwork, Landmarks, RoadConditionsSlot, { token: WEATHER_CONDITIONS, optional: true }],
    useFactory: (engine: RoutingEngine, network: RoadNetwork, landmarks: Landmarks, conditions: RoadConditionsSlot, weather?: WeatherConditions) =>
      new RoutePlanner(engine, network, landmarks, conditions, weather ?? null),
  },
  // Learned traffic and hazards (docs/adr/0025): the traffic context fills the slot.
  { provide: RoadConditionsSlot, useFactory: () => new RoadConditionsSlot() },
  { provide: IsochroneService, inject: [RoadNetwork], useFactory: (network: RoadNetwork) => new IsochroneService(() => network.current()) },
  // The port other contexts compute areas through (isochrones.port.ts).
  { provide: ISOCHRONES, useExisting: IsochroneService },
];

/**
 * Routing and navigation (interface.md, "Routing, transit, weather,
 * language"): the road network, the engine behind its port, the route and
 * navigation endpoints, isochrones for geofences.
 */
@Module({
  imports: [PlacesModule],
  controllers: [PlanRouteController, NavigateRouteController, RouteAlongController, StaticRouteController],
  providers: [...routingProviders, PlanRouteHandler, NavigateRouteHandler, RouteAlongHandler, StaticRouteHandler],
  exports: [RoadNetwork, RoutePlanner, IsochroneService, ISOCHRONES, ROUTING_ENGINE, RoadConditionsSlot],
})
export class RoutingModule implements OnModuleInit, OnModuleDestroy {
  constructor(
    @Inject(RoadNetwork) private readonly network: RoadNetwork,
    @Inject(Readiness) private readonly readiness: Readiness,
  ) {}

  /** A live dataset whose graph is not loaded yet (preparing on first start) holds /health at 503 until it is. */
  async onModuleInit(): Promise<void> {
    if (!(await this.network.datasetLive())) {
      await this.network.start();
      return;
    }
    const release = this.readiness.hold('road_network');
    void this.network.start().finally(release);
  }

  onModuleDestroy(): void {
    this.network.stop();
  }
}
