import { randomUUID } from 'node:crypto';
import type { CommandBus } from '@nestjs/cqrs';
import type { Clock, CommandPipeline, Job, JsonLogger } from '../../../platform/src/index.js';
import { configureWebhook } from '../webhook-commands.js';
import { recordDeliveryAttempt, RecordDeliveryAttemptCommand } from '../commands/record-delivery-attempt/record-delivery-attempt.handler.js';
import { deliveryIdOf, deliveryStream, isSuccess, shouldAttempt, type AbandonReason, type AttemptResult, type DeliveryState } from '../domain/delivery.js';
import { signDelivery } from '../domain/signature.js';
import { isSubscribed, webhookStream } from '../domain/webhook.js';
import type { NotificationCipher } from '../notifications/notification-cipher.js';
import type { NotificationSources } from '../notifications/notification-sources.js';
import type { Notification, StoredNotification } from '../domain/notification.js';
import type { WebhookTransport } from '../outbound/webhook-transport.js';
import type { CustomerErasures } from './customer-erasures.js';
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
 * The attempt goes through the CommandBus (`RecordDeliveryAttemptCommand`);
 * the pipeline only reads the delivery's and the webhook's streams.
 */
export class DeliveryProcessor {
  constructor(
    private readonly commands: CommandBus,
    private readonly streams: CommandPipeline,
    private readonly sources: NotificationSources,
    private readonly cipher: NotificationCipher,
    private readonly transport: WebhookTransport,
    private readonly jobs: WebhookJobs,
    private readonly clock: Clock,
    private readonly logger: Pick<JsonLogger, 'warn'>,
    private readonly erasures: CustomerErasures,
  ) {}

  async handle(job: Job<StoredNotification>, manual: boolean): Promise<void> {
    const stored = job.data;
    const { account_id: accountId } = stored;
    const deliveryId = deliveryIdOf(stored);
    const { state: delivery } = await this.streams.read(recordDeliveryAttempt, deliveryStream(accountId, deliveryId));
    if (!shouldAttempt(delivery, manual)) return;

    const { state: webhook } = await this.streams.read(configureWebhook, webhookStream(accountId));
    if (!isSubscribed(webhook, stored.event_type)) return void (await this.abandon(stored, deliveryId, 'not_subscribed'));

    const notification = this.open(stored);
    // The customer was erased after the event (docs/adr/0055): whatever its type, the body would name them. The job
    // goes from the queue with its data (a removed running job keeps no payload), and the delivery from the history.
    if (await this.erasures.erased(stored, notification)) return void (await this.forget(job, stored, deliveryId));
    const payload = notification && (await this.payloadOf(notification));
    if (notification && payload === undefined) return void (await this.forget(job, stored, deliveryId));

    const attemptedAt = this.clock.now();
    const attemptId = randomUUID();
    let result: Omit<AttemptResult, 'next_attempt_at'>;
    if (payload === undefined || webhook.secret === null) {
      // DATA_ENCRYPTION_KEY changed: nothing can be opened or signed until the key is back or the webhook is configured again.
      result = { attempt_id: attemptId, attempted_at: attemptedAt, status_code: null, error: 'secret_unavailable', duration_ms: 0 };
    } else {
      const body = JSON.stringify(payload);
      const headers = { 'X-Webhook-Event': stored.event_type, 'X-Webhook-Delivery': attemptId, ...signDelivery(webhook.secret, body, attemptedAt) };
      const posted = await this.transport.post(new URL(webhook.url), headers, body);
      result = { attempt_id: attemptId, attempted_at: attemptedAt, ...posted };
    }

    const retryDelay = isSuccess(result.status_code) ? undefined : this.jobs.retryDelayAfter(job.attemptsMade + 1);
    const next_attempt_at = retryDelay === undefined ? null : new Date(this.clock.now().getTime() + retryDelay);
    const { state: recorded } = await this.commands.execute(
      new RecordDeliveryAttemptCommand({
        type: 'RecordAttempt',
        account_id: accountId,
        delivery_id: deliveryId,
        notification: stored,
        manual,
        result: { ...result, next_attempt_at },
      }),
    );
    if (recorded.status === 'delivered') return;
    const attempt = recorded.status === 'none' ? 0 : recorded.attempts;
    // Never the URL, the body, the customer or the secret: the delivery id finds the rest in the deliveries list.
    this.logger.warn({ msg: 'webhook attempt failed', delivery_id: deliveryId, account_id: accountId, attempt, status_code: result.status_code, error: result.error, will_retry: next_attempt_at !== null });
    throw new DeliveryAttemptFailedError(deliveryId, attempt);
  }

  private open(stored: StoredNotification): Notification | undefined {
    try {
      return this.cipher.open(stored);
    } catch {
      return undefined;
    }
  }

  private payloadOf(notification: Notification): Promise<Record<string, unknown> | undefined> {
    const source = this.sources.sourceOf(notification.event_type);
    if (!source) throw new Error(`no notification source produces ${notification.event_type}`);
    return source.source.payloadOf(notification);
  }

  /** Nothing is left to send: abandoned as erased (the history drops it), and the job removed with its sealed notification. */
  private async forget(job: Job<StoredNotification>, stored: StoredNotification, deliveryId: string): Promise<void> {
    await this.abandon(stored, deliveryId, 'data_erased');
    await this.jobs.removeJob(job.id);
  }

  private async abandon(notification: StoredNotification, deliveryId: string, reason: AbandonReason): Promise<DeliveryState> {
    const { state } = await this.commands.execute(new RecordDeliveryAttemptCommand({ type: 'Abandon', account_id: notification.account_id, delivery_id: deliveryId, notification, reason }));
    return state;
  }
}
