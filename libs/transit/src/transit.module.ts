import { Inject, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ReferenceStore, referenceRoot } from '../../places/src/index.js';
import { CONFIG, JsonLogger, type Config } from '../../platform/src/index.js';
import { GetDeparturesController } from './queries/get-departures/get-departures.controller.js';
import { PlanTransitTripController } from './queries/plan-transit-trip/plan-transit-trip.controller.js';
import { TransitFeeds } from './transit-feeds.js';

/** Public transit (interface.md: POST /v2/route/transit, GET /v2/transit/departures) from imported GTFS feeds (docs/adr/0019). */
@Module({
  controllers: [PlanTransitTripController, GetDeparturesController],
  providers: [
    {
      provide: TransitFeeds,
      inject: [CONFIG, JsonLogger],
      useFactory: (config: Config, logger: JsonLogger) =>
        new TransitFeeds(new ReferenceStore(referenceRoot(config)), { info: (fields) => logger.info(fields), error: (fields) => logger.error(fields, 'transit') }),
    },
  ],
  exports: [TransitFeeds],
})
export class TransitModule implements OnModuleInit, OnModuleDestroy {
  constructor(@Inject(TransitFeeds) private readonly feeds: TransitFeeds) {}

  onModuleInit(): Promise<void> {
    return this.feeds.start();
  }

  onModuleDestroy(): void {
    this.feeds.stop();
  }
}
