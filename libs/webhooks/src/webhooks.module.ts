import { Module } from '@nestjs/common';
import { CONFIG, JOB_QUEUE, SecretBox, type Config, type JobQueue } from '../../platform/src/index.js';
import { ConfigureWebhookController } from './commands/configure-webhook/configure-webhook.controller.js';
import { ConfigureWebhookHandler } from './commands/configure-webhook/configure-webhook.handler.js';
import { EraseDeliveriesHandler, EraseDeliveriesStepHandler } from './commands/erase-deliveries/erase-deliveries.handler.js';
import { RecordDeliveryAttemptHandler } from './commands/record-delivery-attempt/record-delivery-attempt.handler.js';
import { RemoveWebhookHandler } from './commands/remove-webhook/remove-webhook.handler.js';
import { RemoveWebhookController } from './commands/remove-webhook/remove-webhook.controller.js';
import { RetryDeliveryController } from './commands/retry-delivery/retry-delivery.controller.js';
import { RequestRetryHandler, RetryDeliveryHandler } from './commands/retry-delivery/retry-delivery.handler.js';
import { WebhookJobs } from './delivery/webhook-jobs.js';
import { NotificationCipher } from './notifications/notification-cipher.js';
import { HOST_RESOLVER, SystemHostResolver, type HostResolver } from './outbound/host-resolver.js';
import { UrlGuard } from './outbound/url-guard.js';
import { GetWebhookController } from './queries/get-webhook/get-webhook.controller.js';
import { GetWebhookHandler } from './queries/get-webhook/get-webhook.handler.js';
import { ListDeliveriesController } from './queries/list-deliveries/list-deliveries.controller.js';
import { ListDeliveriesHandler } from './queries/list-deliveries/list-deliveries.handler.js';

/**
 * What both the HTTP side and the worker side use: the URL policy (commands
 * resolve UrlGuard), the queue, the notification cipher, and the slices'
 * @CommandHandler and @QueryHandler classes (CommandBus and QueryBus find them
 * here, once, whichever of the two modules imports this one).
 */
@Module({
  providers: [
    { provide: HOST_RESOLVER, useValue: new SystemHostResolver() },
    { provide: UrlGuard, inject: [HOST_RESOLVER, CONFIG], useFactory: (resolver: HostResolver, config: Config) => new UrlGuard(resolver, config.webhookAllowPrivateUrls) },
    { provide: WebhookJobs, inject: [JOB_QUEUE, CONFIG], useFactory: (queue: JobQueue, config: Config) => new WebhookJobs(queue, config.webhookRetryDelaysMs) },
    { provide: NotificationCipher, inject: [SecretBox], useFactory: (box: SecretBox) => new NotificationCipher(box) },
    ConfigureWebhookHandler,
    RemoveWebhookHandler,
    RequestRetryHandler,
    RetryDeliveryHandler,
    RecordDeliveryAttemptHandler,
    EraseDeliveriesStepHandler,
    EraseDeliveriesHandler,
    GetWebhookHandler,
    ListDeliveriesHandler,
  ],
  exports: [HOST_RESOLVER, UrlGuard, WebhookJobs, NotificationCipher],
})
export class WebhooksCoreModule {}

/** The webhook endpoints (interface.md, "Identity, consent, monitoring", webhook rows). */
@Module({
  imports: [WebhooksCoreModule],
  controllers: [ConfigureWebhookController, GetWebhookController, RemoveWebhookController, ListDeliveriesController, RetryDeliveryController],
})
export class WebhooksModule {}
