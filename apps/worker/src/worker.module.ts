import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { checkpointPollingWaiter, MAIL_QUEUE, type MailQueue, IntegrationRelay, ProjectionRunner, type ContextDefinition, type ModuleImport, type Runtime } from '../../../libs/platform/src/index.js';
import { contexts } from '../../shared/contexts.js';
import { projections } from '../../shared/runtime.js';

/** Starts the projections, the Kafka relay and the mail sender once the application is up, stops them on shutdown. */
@Injectable()
class WorkerLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    private readonly runner: ProjectionRunner,
    @Optional() @Inject(IntegrationRelay) private readonly relay: IntegrationRelay | null,
    @Inject(MAIL_QUEUE) private readonly mail: MailQueue,
  ) {}

  private mailWorker?: { close(): Promise<void> };

  async onApplicationBootstrap(): Promise<void> {
    await this.runner.start();
    await this.relay?.start();
    this.mailWorker = this.mail.startWorker();
  }

  async onModuleDestroy(): Promise<void> {
    await this.mailWorker?.close();
    await this.relay?.stop();
    await this.runner.stop();
  }
}

/**
 * Background work: projections into the read store, the integration relay to
 * Kafka, the mail sender, and every context's worker module
 * (apps/shared/contexts.ts): the webhook fan-out and delivery, banking's
 * re-verification processor, the notification sources the fan-out resolves
 * by token (webhooks import none of them). Each projection is registered as a
 * read model commands can wait for, in this process (the all-in-one one
 * serves HTTP too).
 */
@Global()
@Module({})
export class WorkerModule {
  static forRoot(runtime: Runtime, definitions: readonly ContextDefinition[] = contexts): DynamicModule {
    const { backends, registry, logger, config, readModels, followers } = runtime;
    const runner = new ProjectionRunner(backends.events, backends.readStore, registry, projections, logger, {}, followers);
    // Among several workers the projections run in the lease holder only: the others wait on the checkpoints, as the api does.
    for (const projection of projections)
      readModels.register(projection.name, followers.gate ? checkpointPollingWaiter(backends.readStore, projection) : { waitFor: (position, timeoutMs) => runner.waitFor(projection.name, position, timeoutMs) });
    const publisher = backends.publisher;
    const relay = publisher ? new IntegrationRelay(backends.events, backends.readStore, publisher, config.kafkaTopicPrefix, registry, logger) : null;
    if (relay) followers.add(relay.logFollower);
    return {
      module: WorkerModule,
      imports: definitions.flatMap((definition): ModuleImport[] => (definition.worker ? [definition.worker] : [])),
      providers: [
        { provide: ProjectionRunner, useValue: runner },
        ...(relay ? [{ provide: IntegrationRelay, useValue: relay }] : []),
        WorkerLifecycle,
      ],
      exports: [ProjectionRunner],
    };
  }
}
