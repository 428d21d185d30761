import path from 'node:path';
import { Inject, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { CONFIG, JsonLogger, type Config } from '../../platform/src/index.js';
import { Gazetteer } from './gazetteer.js';
import { SearchPlacesController } from './queries/search-places/search-places.controller.js';
import { ReferenceStore } from './reference/reference-store.js';

/** Where the reference datasets live under DATA_DIR (docs/adr/0011). */
export function referenceRoot(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'reference');
}

/** Places and search (interface.md, "Addresses, hex codes and search": GET /v2/search). */
@Module({
  controllers: [SearchPlacesController],
  providers: [
    {
      provide: Gazetteer,
      inject: [CONFIG, JsonLogger],
      useFactory: (config: Config, logger: JsonLogger) =>
        new Gazetteer(new ReferenceStore(referenceRoot(config)), { info: (fields) => logger.info(fields), error: (fields) => logger.error(fields, 'places') }),
    },
  ],
  exports: [Gazetteer],
})
export class PlacesModule implements OnModuleInit, OnModuleDestroy {
  constructor(@Inject(Gazetteer) private readonly gazetteer: Gazetteer) {}

  onModuleInit(): Promise<void> {
    return this.gazetteer.start();
  }

  onModuleDestroy(): void {
    this.gazetteer.stop();
  }
}
