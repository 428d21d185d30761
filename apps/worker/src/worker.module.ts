import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import {
  InProcessWaiter,
  MAIL_QUEUE,
  type MailQueue,
  IntegrationRelay,
  ProjectionRunner,
  PROJECTION_WAITER,
  type Runtime,
} from '../../../libs/platform/src/index.js';
import { WebhooksWorkerModule } from '../../../libs/webhooks/src/index.js';
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
 * Kafka and (from later issues) the queue processors. Global so that the
 * projection waiter it provides reaches the API's command handlers in the
 * all-in-one process.
 */
@Global()
@Module({})
export class WorkerModule {
  static forRoot(runtime: Runtime): DynamicModule {
    const { backends, registry, logger, config } = runtime;
    const runner = new ProjectionRunner(backends.events, backends.readStore, registry, projections, logger);
    const publisher = backends.publisher;
    const relay = publisher ? new IntegrationRelay(backends.events, backends.readStore, publisher, config.kafkaTopicPrefix, logger) : null;
    return {
      module: WorkerModule,
      imports: [WebhooksWorkerModule],
      providers: [
        { provide: ProjectionRunner, useValue: runner },
        { provide: PROJECTION_WAITER, useValue: new InProcessWaiter(runner) },
        ...(relay ? [{ provide: IntegrationRelay, useValue: relay }] : []),
        WorkerLifecycle,
      ],
      exports: [ProjectionRunner, PROJECTION_WAITER],
    };
  }
}
