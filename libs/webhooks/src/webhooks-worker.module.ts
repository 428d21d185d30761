import { Inject, Injectable, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import {
  CLOCK,
  CONFIG,
  EVENT_STORE,
  EventRegistry,
  JsonLogger,
  READ_STORE,
  type Clock,
  type Config,
  type EventStore,
  type ReadStore,
  type Worker,
} from '../../platform/src/index.js';
import { MonitoringModule, NOTIFICATION_SOURCE, type NotificationSource } from '../../monitoring/src/index.js';
import { Deliveries } from './delivery/deliveries.js';
import { DeliveryProcessor } from './delivery/delivery-processor.js';
import { WebhookFanOut } from './delivery/fan-out.js';
import { WebhookJobs } from './delivery/webhook-jobs.js';
import { UrlGuard } from './outbound/url-guard.js';
import { WebhookTransport } from './outbound/webhook-transport.js';
import { WebhooksCoreModule } from './webhooks.module.js';
import { Webhooks } from './webhooks.js';

/** Starts the fan-out and the delivery processor with the worker; on shutdown aborts attempts in flight (the queue retries them). */
@Injectable()
class WebhooksWorkerLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  private worker?: Worker;

  constructor(
    private readonly fanOut: WebhookFanOut,
    private readonly processor: DeliveryProcessor,
    private readonly transport: WebhookTransport,
    private readonly jobs: WebhookJobs,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.worker = this.jobs.process((job, manual) => this.processor.handle(job, manual), this.config.webhookConcurrency);
    await this.fanOut.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.fanOut.stop();
    this.transport.abortAll();
    await this.worker?.close();
  }
}

/** Webhook fan-out and delivery, in the worker (and the all-in-one process). */
@Module({
  imports: [WebhooksCoreModule, MonitoringModule],
  providers: [
    { provide: WebhookTransport, inject: [UrlGuard, CONFIG], useFactory: (guard: UrlGuard, config: Config) => new WebhookTransport(guard, config.webhookTimeoutMs) },
    {
      provide: DeliveryProcessor,
      inject: [Webhooks, Deliveries, NOTIFICATION_SOURCE, WebhookTransport, WebhookJobs, CLOCK, JsonLogger],
      useFactory: (webhooks: Webhooks, deliveries: Deliveries, source: NotificationSource, transport: WebhookTransport, jobs: WebhookJobs, clock: Clock, logger: JsonLogger) =>
        new DeliveryProcessor(webhooks, deliveries, source, transport, jobs, clock, logger),
    },
    {
      provide: WebhookFanOut,
      inject: [EVENT_STORE, READ_STORE, EventRegistry, NOTIFICATION_SOURCE, Webhooks, WebhookJobs, JsonLogger],
      useFactory: (events: EventStore, readStore: ReadStore, registry: EventRegistry, source: NotificationSource, webhooks: Webhooks, jobs: WebhookJobs, logger: JsonLogger) =>
        new WebhookFanOut(events, readStore, registry, source, webhooks, jobs, logger),
    },
    WebhooksWorkerLifecycle,
  ],
})
export class WebhooksWorkerModule {}
