import type { ContextManifest } from '../../platform/src/index.js';
import { webhooksAsOf } from './as-of.js';
import { configureWebhook } from './webhook-commands.js';
import { eraseDeliveries } from './commands/erase-deliveries/erase-deliveries.handler.js';
import { recordDeliveryAttempt } from './commands/record-delivery-attempt/record-delivery-attempt.handler.js';
import { removeWebhook } from './commands/remove-webhook/remove-webhook.handler.js';
import { requestRetry } from './commands/retry-delivery/retry-delivery.handler.js';
import { WEBHOOK_QUEUE } from './delivery/webhook-jobs.js';
import { webhooksEventTypes } from './event-types.js';
import { GetWebhookQuery } from './queries/get-webhook/get-webhook.handler.js';
import { ListDeliveriesQuery } from './queries/list-deliveries/list-deliveries.handler.js';

/**
 * What the webhooks context brings to a process (checked at start-up). It
 * contributes no notification source: it reads every other context's
 * (`notifications` in their manifests) and processes the webhook queue.
 */
export const webhooksManifest: ContextManifest = {
  name: 'webhooks',
  events: webhooksEventTypes,
  commands: [configureWebhook, removeWebhook, requestRetry, recordDeliveryAttempt, eraseDeliveries],
  queries: [GetWebhookQuery, ListDeliveriesQuery],
  readModels: { projections: ['webhook_deliveries'] },
  jobs: [WEBHOOK_QUEUE],
  asOf: webhooksAsOf,
};
