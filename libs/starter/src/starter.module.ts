import path from 'node:path';
import { Inject, Injectable, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Gazetteer, PlacesModule, ReferenceStore, referenceRoot } from '../../places/src/index.js';
import { CONFIG, JsonLogger, Readiness, type Config } from '../../platform/src/index.js';
import { TransitFeeds, TransitModule } from '../../transit/src/index.js';
import { RoadNetwork, RoutingModule } from '../../routing/src/index.js';
import { importStarterData, StarterAbortedError } from './first-start.js';
import { appRoot, DEFAULT_PACK } from './public/pack.js';

/**
 * Runs the starter import (docs/adr/0017) in the process that serves the
 * reference data (api, all-in-one), beside the HTTP server: /health answers
 * 503 `starting` with `pending: ["starter_data"]` until the datasets are live
 * and loaded. A failed import is logged and the service serves without it
 * (search answers 503 DATASET_NOT_LOADED, as before any import).
 */
@Injectable()
export class StarterData implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(JsonLogger) private readonly logger: JsonLogger,
    @Inject(Readiness) private readonly readiness: Readiness,
    @Inject(Gazetteer) private readonly gazetteer: Gazetteer,
    @Inject(TransitFeeds) private readonly transit: TransitFeeds,
    @Inject(RoadNetwork) private readonly roads: RoadNetwork,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.config.starterData) return;
    const release = this.readiness.hold('starter_data');
    this.running = this.run().finally(release);
  }

  /** Resolves once the first-start import has finished (or was never needed). */
  get done(): Promise<void> {
    return this.running ?? Promise.resolve();
  }

  async onModuleDestroy(): Promise<void> {
    this.abort.abort();
    await this.running;
  }

  private async run(): Promise<void> {
    const started = Date.now();
    const packDir = path.join(appRoot(), DEFAULT_PACK);
    try {
      const report = await importStarterData(new ReferenceStore(referenceRoot(this.config)), packDir, {
        log: { info: (fields) => this.logger.info(fields) },
        signal: this.abort.signal,
        tilesDir: this.config.tilesDir,
      });
      if (report.imported.length === 0) return;
      // A poll may be loading an older set of pointers: the second reload starts from the final ones (a no-op if already loaded).
      await this.gazetteer.reload();
      await this.gazetteer.reload();
      await this.transit.reload();
      await this.transit.reload();
      // The road graph is prepared (a worker thread) and loaded before /health turns 200; the same double reload as above.
      if (report.imported.some((entry) => entry.kind === 'roads')) {
        await this.roads.reload();
        await this.roads.reload();
      }
      this.logger.info({
        msg: 'starter data imported',
        pack: packDir,
        datasets: report.imported.map((entry) => `${entry.dataset}@${entry.version}`),
        records: report.imported.reduce((sum, entry) => sum + entry.records, 0),
        import_ms: report.ms,
        // The first-start cost: from the application's bootstrap to the datasets loaded and answering.
        ms: Date.now() - started,
      });
    } catch (error) {
      if (error instanceof StarterAbortedError) this.logger.info({ msg: 'starter data import stopped by shutdown; the next start completes it' });
      else this.logger.error({ msg: 'starter data not imported; the service runs without it', pack: packDir, err: error instanceof Error ? error.message : String(error) }, 'starter');
    }
  }
}

/** The starter import, for the HTTP processes (STARTER_DATA). */
@Module({ imports: [PlacesModule, TransitModule, RoutingModule], providers: [StarterData], exports: [StarterData] })
export class StarterModule {}
