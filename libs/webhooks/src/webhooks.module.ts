import { Module } from '@nestjs/common';
import {
  CLOCK,
  CONFIG,
  EVENT_STORE,
  EventRegistry,
  JOB_QUEUE,
  SecretBox,
  type Clock,
  type Config,
  type EventStore,
  type JobQueue,
} from '../../platform/src/index.js';
import { ConfigureWebhookController } from './commands/configure-webhook/configure-webhook.controller.js';
import { RemoveWebhookController } from './commands/remove-webhook/remove-webhook.controller.js';
import { RetryDeliveryController } from './commands/retry-delivery/retry-delivery.controller.js';
import { Deliveries } from './delivery/deliveries.js';
import { WebhookJobs } from './delivery/webhook-jobs.js';
import { HOST_RESOLVER, SystemHostResolver, type HostResolver } from './outbound/host-resolver.js';
import { UrlGuard } from './outbound/url-guard.js';
import { GetWebhookController } from './queries/get-webhook/get-webhook.controller.js';
import { ListDeliveriesController } from './queries/list-deliveries/list-deliveries.controller.js';
import { Webhooks } from './webhooks.js';

/** What both the HTTP side and the worker side use: configuration, the queue, the delivery streams, the URL policy. */
@Module({
  providers: [
    { provide: HOST_RESOLVER, useValue: new SystemHostResolver() },
    { provide: UrlGuard, inject: [HOST_RESOLVER, CONFIG], useFactory: (resolver: HostResolver, config: Config) => new UrlGuard(resolver, config.webhookAllowPrivateUrls) },
    {
      provide: Webhooks,
      inject: [EVENT_STORE, EventRegistry, CLOCK, SecretBox, UrlGuard],
      useFactory: (events: EventStore, registry: EventRegistry, clock: Clock, secretBox: SecretBox, guard: UrlGuard) => new Webhooks(events, registry, clock, secretBox, guard),
    },
    { provide: WebhookJobs, inject: [JOB_QUEUE, CONFIG], useFactory: (queue: JobQueue, config: Config) => new WebhookJobs(queue, config.webhookRetryDelaysMs) },
    {
      provide: Deliveries,
      inject: [EVENT_STORE, EventRegistry, CLOCK, Webhooks, WebhookJobs],
      useFactory: (events: EventStore, registry: EventRegistry, clock: Clock, webhooks: Webhooks, jobs: WebhookJobs) => new Deliveries(events, registry, clock, webhooks, jobs),
    },
  ],
  exports: [HOST_RESOLVER, UrlGuard, Webhooks, WebhookJobs, Deliveries],
})
export class WebhooksCoreModule {}

/** The webhook endpoints (interface.md, "Identity, consent, monitoring", webhook rows). */
@Module({
  imports: [WebhooksCoreModule],
  controllers: [ConfigureWebhookController, GetWebhookController, RemoveWebhookController, ListDeliveriesController, RetryDeliveryController],
})
export class WebhooksModule {}
