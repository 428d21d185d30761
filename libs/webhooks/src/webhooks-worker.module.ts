import { Inject, Injectable, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { CommandBus } from '@nestjs/cqrs';
import {
  CLOCK,
  CommandPipeline,
  CONFIG,
  CONTEXT_MANIFESTS,
  EVENT_STORE,
  EventRegistry,
  Followers,
  JsonLogger,
  READ_STORE,
  type Clock,
  type Config,
  type ContextManifest,
  type EventStore,
  type ReadStore,
  type Worker,
} from '../../platform/src/index.js';
import { CustomerErasures } from './delivery/customer-erasures.js';
import { DeliveryProcessor } from './delivery/delivery-processor.js';
import { WebhookFanOut } from './delivery/fan-out.js';
import { WebhookJobs } from './delivery/webhook-jobs.js';
import { NotificationCipher } from './notifications/notification-cipher.js';
import { NotificationSources } from './notifications/notification-sources.js';
import { UrlGuard } from './outbound/url-guard.js';
import { WebhookTransport } from './outbound/webhook-transport.js';
import { WebhooksCoreModule } from './webhooks.module.js';

/**
 * Starts the fan-out and the delivery processor with the worker; on shutdown
 * aborts attempts in flight (the queue retries them). The notification
 * sources are gathered at bootstrap, once every context's providers exist:
 * each manifest names its source's token, resolved anywhere in the container,
 * so this module imports no context. A webhook event type with no source or
 * two stops the start.
 */
@Injectable()
class WebhooksWorkerLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  private worker?: Worker;
  private fanOut?: WebhookFanOut;

  constructor(
    private readonly modules: ModuleRef,
    @Inject(CONTEXT_MANIFESTS) private readonly manifests: readonly ContextManifest[],
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly readStore: ReadStore,
    private readonly registry: EventRegistry,
    private readonly streams: CommandPipeline,
    private readonly commands: CommandBus,
    private readonly followers: Followers,
    private readonly cipher: NotificationCipher,
    private readonly transport: WebhookTransport,
    private readonly jobs: WebhookJobs,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: Config,
    private readonly logger: JsonLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const sources = NotificationSources.fromManifests(this.manifests, (token) => this.modules.get(token as never, { strict: false }));
    const erasures = new CustomerErasures(this.streams, this.cipher, sources);
    const processor = new DeliveryProcessor(this.commands, this.streams, sources, this.cipher, this.transport, this.jobs, this.clock, this.logger, erasures);
    this.fanOut = new WebhookFanOut(this.events, this.readStore, this.registry, sources, this.streams, this.cipher, this.jobs, this.commands, this.logger);
    this.followers.add(this.fanOut.follower);
    this.worker = this.jobs.process((job, manual) => processor.handle(job, manual), this.config.webhookConcurrency);
    await this.fanOut.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.fanOut?.stop();
    this.transport.abortAll();
    await this.worker?.close();
  }
}

/** Webhook fan-out and delivery, in the worker (and the all-in-one process). */
@Module({
  imports: [WebhooksCoreModule],
  providers: [
    { provide: WebhookTransport, inject: [UrlGuard, CONFIG], useFactory: (guard: UrlGuard, config: Config) => new WebhookTransport(guard, config.webhookTimeoutMs) },
    WebhooksWorkerLifecycle,
  ],
})
export class WebhooksWorkerModule {}
