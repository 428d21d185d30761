import path from 'node:path';
import { Inject, Injectable, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import {
  CONFIG,
  CONTEXT_MANIFESTS,
  DATASET_STORE,
  JsonLogger,
  Readiness,
  referenceRoot,
  type Config,
  type ContextManifest,
  type DatasetStore,
} from '../../platform/src/index.js';
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
    @Inject(DATASET_STORE) private readonly store: DatasetStore,
    @Inject(CONTEXT_MANIFESTS) private readonly manifests: readonly ContextManifest[],
    @Inject(ModuleRef) private readonly modules: ModuleRef,
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
      const datasets = this.manifests.flatMap((manifest) => manifest.datasets ?? []);
      const report = await importStarterData(this.store, packDir, {
        datasets,
        lockDir: referenceRoot(this.config),
        log: { info: (fields) => this.logger.info(fields) },
        signal: this.abort.signal,
        tilesDir: this.config.tilesDir,
        glyphsDir: path.join(this.config.dataDir, 'glyphs'),
      });
      if (report.imported.length === 0) return;
      // What serves each imported kind (the gazetteer, the transit feeds, the road network, whose graph is prepared
      // in a worker thread) has it loaded before /health turns 200. A poll may be loading an older set of pointers:
      // the second reload starts from the final ones (a no-op if already loaded).
      const imported = new Set<string>(report.imported.map((entry) => entry.kind));
      const servers = new Set(datasets.filter((declaration) => declaration.starter && imported.has(declaration.starter.kind)).map((declaration) => declaration.starter!.servedBy));
      for (const token of servers) {
        if (token === undefined) continue;
        const server = this.modules.get<unknown, { reload(): Promise<boolean> }>(token as never, { strict: false });
        await server.reload();
        await server.reload();
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

/**
 * The starter import, for the HTTP processes (STARTER_DATA). It knows no
 * context: the datasets come from the manifests, and what serves them is
 * found by the token each declaration names (in the modules of the process).
 */
@Module({ providers: [StarterData], exports: [StarterData] })
export class StarterModule {}
