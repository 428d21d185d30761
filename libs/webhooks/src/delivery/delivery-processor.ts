import { randomUUID } from 'node:crypto';
import type { Clock, Job, JsonLogger } from '../../../platform/src/index.js';
import type { Notification, NotificationSource } from '../../../monitoring/src/index.js';
import { deliveryIdOf, isSuccess, shouldAttempt, type AttemptResult } from '../domain/delivery.js';
import { signDelivery } from '../domain/signature.js';
import { isSubscribed } from '../domain/webhook.js';
import type { WebhookTransport } from '../outbound/webhook-transport.js';
import type { Webhooks } from '../webhooks.js';
import type { Deliveries } from './deliveries.js';
import type { WebhookJobs } from './webhook-jobs.js';

/** Thrown after a failed attempt is recorded, so the queue schedules the next one. */
export class DeliveryAttemptFailedError extends Error {
  constructor(readonly deliveryId: string, readonly attempt: number) {
    super(`webhook delivery ${deliveryId} attempt ${attempt} failed`);
    this.name = 'DeliveryAttemptFailedError';
  }
}

/**
 * Runs one queued attempt (interface.md, "Webhook delivery" and "Headers on
 * every delivery"): read the current endpoint, build the body from the stored
 * event, sign it for this attempt, POST, record the attempt as an event, and
 * fail the job on anything but a 2xx so the queue retries on the schedule.
 */
export class DeliveryProcessor {
  constructor(
    private readonly webhooks: Webhooks,
    private readonly deliveries: Deliveries,
    private readonly source: NotificationSource,
    private readonly transport: WebhookTransport,
    private readonly jobs: WebhookJobs,
    private readonly clock: Clock,
    private readonly logger: Pick<JsonLogger, 'warn'>,
  ) {}

  async handle(job: Job<Notification>, manual: boolean): Promise<void> {
    const notification = job.data;
    const { account_id: accountId } = notification;
    const deliveryId = deliveryIdOf(notification);
    const delivery = await this.deliveries.state(accountId, deliveryId);
    if (!shouldAttempt(delivery, manual)) return;

    const webhook = await this.webhooks.state(accountId);
    if (!isSubscribed(webhook, notification.event_type)) {
      await this.deliveries.record(accountId, deliveryId, { type: 'Abandon', delivery_id: deliveryId, notification, reason: 'not_subscribed', now: this.clock.now() });
      return;
    }
    const payload = await this.source.payloadOf(notification);
    if (payload === undefined) {
      await this.deliveries.record(accountId, deliveryId, { type: 'Abandon', delivery_id: deliveryId, notification, reason: 'data_erased', now: this.clock.now() });
      return;
    }

    const attemptedAt = this.clock.now();
    const attemptId = randomUUID();
    let result: Omit<AttemptResult, 'next_attempt_at'>;
    let secret: string | undefined;
    try {
      secret = this.webhooks.secretOf(accountId, webhook);
    } catch {
      // DATA_ENCRYPTION_KEY changed: nothing can be signed until the key is back or the webhook is configured again.
      secret = undefined;
    }
    if (secret === undefined) {
      result = { attempt_id: attemptId, attempted_at: attemptedAt, status_code: null, error: 'secret_unavailable', duration_ms: 0 };
    } else {
      const body = JSON.stringify(payload);
      const headers = { 'X-Webhook-Event': notification.event_type, 'X-Webhook-Delivery': attemptId, ...signDelivery(secret, body, attemptedAt) };
      const posted = await this.transport.post(new URL(webhook.url), headers, body);
      result = { attempt_id: attemptId, attempted_at: attemptedAt, ...posted };
    }

    const retryDelay = isSuccess(result.status_code) ? undefined : this.jobs.retryDelayAfter(job.attemptsMade + 1);
    const next_attempt_at = retryDelay === undefined ? null : new Date(this.clock.now().getTime() + retryDelay);
    const recorded = await this.deliveries.record(accountId, deliveryId, { type: 'RecordAttempt', delivery_id: deliveryId, notification, manual, result: { ...result, next_attempt_at } });
    if (recorded.status === 'delivered') return;
    const attempt = recorded.status === 'none' ? 0 : recorded.attempts;
    // Never the URL, the body or the secret: the delivery id finds the rest in the deliveries list.
    this.logger.warn({ msg: 'webhook attempt failed', delivery_id: deliveryId, account_id: accountId, attempt, status_code: result.status_code, error: result.error, will_retry: next_attempt_at !== null });
    throw new DeliveryAttemptFailedError(deliveryId, attempt);
  }
}
