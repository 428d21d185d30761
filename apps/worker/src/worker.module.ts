import { DynamicModule, Global, Inject, Injectable, Module, OnApplicationBootstrap, OnModuleDestroy, Optional } from '@nestjs/common';
import { MAIL_QUEUE, type MailQueue, IntegrationRelay, ProjectionRunner, type Runtime } from '../../../libs/platform/src/index.js';
import { BankingNotificationsModule } from '../../../libs/banking/src/index.js';
import { IdentityNotificationsModule } from '../../../libs/identity/src/index.js';
import { MonitoringModule } from '../../../libs/monitoring/src/index.js';
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
 * The contexts whose manifests declare webhook notification sources: their
 * modules provide the sources the webhook fan-out resolves by token, so they
 * are part of every process that runs it (webhooks import none of them).
 */
const NOTIFYING_CONTEXTS = [MonitoringModule, IdentityNotificationsModule, BankingNotificationsModule];

/**
 * Background work: projections into the read store, the integration relay to
 * Kafka, the mail sender and the webhook fan-out and delivery. Each
 * projection is registered as a read model commands can wait for, in this
 * process (the all-in-one one serves HTTP too).
 */
@Global()
@Module({})
export class WorkerModule {
  static forRoot(runtime: Runtime): DynamicModule {
    const { backends, registry, logger, config, readModels, followers } = runtime;
    const runner = new ProjectionRunner(backends.events, backends.readStore, registry, projections, logger, {}, followers);
    for (const projection of projections) readModels.register(projection.name, { waitFor: (position, timeoutMs) => runner.waitFor(projection.name, position, timeoutMs) });
    const publisher = backends.publisher;
    const relay = publisher ? new IntegrationRelay(backends.events, backends.readStore, publisher, config.kafkaTopicPrefix, registry, logger) : null;
    if (relay) followers.add(relay.logFollower);
    return {
      module: WorkerModule,
      imports: [WebhooksWorkerModule, ...NOTIFYING_CONTEXTS],
      providers: [
        { provide: ProjectionRunner, useValue: runner },
        ...(relay ? [{ provide: IntegrationRelay, useValue: relay }] : []),
        WorkerLifecycle,
      ],
      exports: [ProjectionRunner],
    };
  }
}
