import { DynamicModule, Global, Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import type { Backends } from './backends.js';
import { CLOCK, type Clock } from './clock.js';
import { CommandPipeline } from './commands/command-pipeline.js';
import { ReadModels } from './commands/read-models.js';
import { CONFIG, type Config } from './config/config.js';
import { EVENT_STORE } from './event-store/event-store.port.js';
import { instrumentAppends, instrumentQueue, watchFollowers, watchQueueDepth, watchTransactionQueue } from './metrics/metrics.js';
import { EmbeddedEventStore } from './event-store/embedded/embedded-event-store.js';
import { EmbeddedReadStore } from './read-store/embedded/embedded-read-store.js';
import { EventRegistry } from './events/event-registry.js';
import { Followers } from './followers/followers.js';
import { HealthController } from './health/health.controller.js';
import { MetricsController } from './metrics/metrics.controller.js';
import { Readiness } from './health/readiness.js';
import { INTEGRATION_PUBLISHER } from './integration/integration-bus.port.js';
import { JsonLogger } from './logging/json-logger.js';
import { CONTEXT_MANIFESTS, type ContextManifest } from './manifest/context-manifest.js';
import { PROCESS_ROLE, type ProcessRole } from './manifest/context-definition.js';
import { watchProcessors } from './manifest/wiring-check.js';
import { JOB_QUEUE } from './queue/job-queue.port.js';
import { READ_STORE } from './read-store/read-store.port.js';
import { DATA_KEY_VAULT, SecretBox } from './crypto/index.js';
import { MAIL_QUEUE } from './mail/index.js';
import { RATE_LIMITER } from './rate-limit/rate-limiter.port.js';
import { DATASET_STORE } from './reference/dataset-store.port.js';
import { datasetsCheck } from './health/datasets-check.js';
import { FileDatasetStore, referenceRoot } from './reference/file/file-dataset-store.js';

/** What a process opens before Nest starts: configuration, logger, backends, the contexts' manifests and what is built from them. */
export interface Runtime {
  config: Config;
  logger: JsonLogger;
  clock: Clock;
  backends: Backends;
  /** Every context's manifest, checked at start-up (checkManifests). */
  manifests: readonly ContextManifest[];
  registry: EventRegistry;
  readiness: Readiness;
  /** Read models commands wait for: projections and in-memory views register here. */
  readModels: ReadModels;
  /** Every log follower of the process (health signal). */
  followers: Followers;
}

/** Makes the runtime injectable everywhere; closing the backends is the entry point's job. */
@Global()
@Module({})
export class PlatformModule {
  /** `role`: the PROCESS_ROLE token (default: `api` with HTTP, `worker` without). */
  static forRoot(runtime: Runtime, options: { http: boolean; role?: ProcessRole }): DynamicModule {
    instrumentAppends(runtime.backends.events);
    instrumentQueue(runtime.backends.queue);
    watchProcessors(runtime.backends.queue);
    watchFollowers(runtime.followers, runtime.backends.events);
    watchQueueDepth(runtime.backends.queue, runtime.manifests.flatMap((manifest) => manifest.jobs ?? []));
    // Reference data (docs/adr/0011): files under DATA_DIR/reference, shared by every instance through the volume.
    const datasets = new FileDatasetStore(referenceRoot(runtime.config));
    runtime.readiness.add(datasetsCheck(datasets, runtime.config.starterData));
    // One sliced job on this process's loop at a time (docs/adr/0048).
    // The embedded stores queue their write callbacks for a batch (docs/adr/0049); the servers' adapters queue nothing here.
    for (const store of [runtime.backends.events, runtime.backends.readStore]) {
      if (store instanceof EmbeddedEventStore || store instanceof EmbeddedReadStore) watchTransactionQueue(store);
    }
    const providers = [
      { provide: PROCESS_ROLE, useValue: options.role ?? (options.http ? 'api' : 'worker') },
      { provide: CONFIG, useValue: runtime.config },
      { provide: CLOCK, useValue: runtime.clock },
      { provide: JsonLogger, useValue: runtime.logger },
      { provide: EventRegistry, useValue: runtime.registry },
      { provide: Readiness, useValue: runtime.readiness },
      { provide: ReadModels, useValue: runtime.readModels },
      { provide: Followers, useValue: runtime.followers },
      { provide: CONTEXT_MANIFESTS, useValue: runtime.manifests },
      { provide: EVENT_STORE, useValue: runtime.backends.events },
      { provide: READ_STORE, useValue: runtime.backends.readStore },
      { provide: JOB_QUEUE, useValue: runtime.backends.queue },
      { provide: INTEGRATION_PUBLISHER, useValue: runtime.backends.publisher ?? null },
      { provide: RATE_LIMITER, useValue: runtime.backends.rateLimiter },
      { provide: MAIL_QUEUE, useValue: runtime.backends.mailQueue },
      { provide: SecretBox, useValue: runtime.backends.secretBox },
      { provide: DATA_KEY_VAULT, useValue: runtime.backends.dataKeys },
      { provide: DATASET_STORE, useValue: datasets },
      {
        provide: CommandPipeline,
        inject: [ModuleRef],
        useFactory: (modules: ModuleRef) =>
          new CommandPipeline(runtime.backends.events, runtime.registry, runtime.readModels, runtime.clock, {
            waitMs: runtime.config.projectionWaitMs,
            resolve: (token) => modules.get(token as never, { strict: false }),
          }),
      },
    ];
    return {
      module: PlatformModule,
      // @nestjs/cqrs: CommandBus and QueryBus dispatch to the slices' @CommandHandler/@QueryHandler classes (docs/adr/0015).
      imports: [CqrsModule.forRoot()],
      controllers: options.http ? [HealthController, MetricsController] : [],
      providers,
      exports: providers.map((provider) => provider.provide),
    };
  }
}
