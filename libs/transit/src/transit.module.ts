import { Inject, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { CONFIG, DATASET_STORE, JsonLogger, referenceRoot, type Config, type DatasetStore } from '../../platform/src/index.js';
import { GetDeparturesController } from './queries/get-departures/get-departures.controller.js';
import { GetDeparturesHandler } from './queries/get-departures/get-departures.handler.js';
import { PlanTransitTripController } from './queries/plan-transit-trip/plan-transit-trip.controller.js';
import { PlanTransitTripHandler } from './queries/plan-transit-trip/plan-transit-trip.handler.js';
import { PlannerPool } from './public/planner-pool.js';
import { TransitFeeds } from './public/transit-feeds.js';

/** Public transit (interface.md: POST /v2/route/transit, GET /v2/transit/departures) from imported GTFS feeds (docs/adr/0019). */
@Module({
  controllers: [PlanTransitTripController, GetDeparturesController],
  providers: [
    {
      provide: TransitFeeds,
      inject: [DATASET_STORE, JsonLogger],
      useFactory: (store: DatasetStore, logger: JsonLogger) =>
        new TransitFeeds(store, { info: (fields) => logger.info(fields), error: (fields) => logger.error(fields, 'transit') }),
    },
    {
      provide: PlannerPool,
      inject: [CONFIG, JsonLogger],
      // Planner threads have no container: each opens the file adapter on the same root.
      useFactory: (config: Config, logger: JsonLogger) => new PlannerPool({ threads: config.transitWorkers, root: referenceRoot(config), log: { error: (fields) => logger.error(fields, 'transit') } }),
    },
    PlanTransitTripHandler,
    GetDeparturesHandler,
  ],
  exports: [TransitFeeds],
})
export class TransitModule implements OnModuleInit, OnModuleDestroy {
  constructor(
    @Inject(TransitFeeds) private readonly feeds: TransitFeeds,
    @Inject(PlannerPool) private readonly planner: PlannerPool,
  ) {}

  onModuleInit(): Promise<void> {
    // The planner threads follow the live versions: compile the new ones as they are swapped in, drop the old.
    this.feeds.onSwap((feeds) => this.planner.keep(feeds));
    return this.feeds.start();
  }

  async onModuleDestroy(): Promise<void> {
    this.feeds.stop();
    await this.planner.close();
  }
}
