import type { EventRegistry, EventStore, JsonLogger, ReadStore, RecordedEvent, Subscription } from '../../../platform/src/index.js';
import type { NotificationSource } from '../../../monitoring/src/index.js';
import { isSubscribed } from '../domain/webhook.js';
import type { Webhooks } from '../webhooks.js';
import type { WebhookJobs } from './webhook-jobs.js';

/** The fan-out's position in the log, kept in the read store like a projection's. */
export const FAN_OUT_CHECKPOINT = 'webhook_fan_out';
const CHECKPOINT_EVERY_MS = 100;
const RESTART_DELAY_MS = 1000;

/**
 * Webhook fan-out, derived from the event stream and never sent inline: a
 * checkpointed catch-up subscription over the notification source's streams
 * asks, for each event, whether it notifies; when the account's webhook
 * subscribes to that event type, a delivery job is queued. Delivery of events
 * is at least once and job ids are deterministic, so an event seen twice
 * queues one job. The checkpoint moves only after the job is stored.
 *
 * Subscription is judged when the fan-out reads the event (normally
 * milliseconds after it was stored); the delivery checks it again per attempt.
 */
export class WebhookFanOut {
  private subscription?: Subscription;
  private position = 0n;
  private saved = 0n;
  private lastSave = 0;
  private stopping = false;
  private restart?: NodeJS.Timeout;

  constructor(
    private readonly events: EventStore,
    private readonly readStore: ReadStore,
    private readonly registry: EventRegistry,
    private readonly source: NotificationSource,
    private readonly webhooks: Webhooks,
    private readonly jobs: WebhookJobs,
    private readonly logger: Pick<JsonLogger, 'error'>,
  ) {}

  async start(): Promise<void> {
    this.stopping = false;
    this.position = (await this.readStore.getCheckpoint(FAN_OUT_CHECKPOINT)) ?? 0n;
    this.saved = this.position;
    this.subscribe();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restart);
    await this.subscription?.stop();
    await this.save();
  }

  /** Last position handled, for tests and progress output. */
  get handledPosition(): bigint {
    return this.position;
  }

  private subscribe(): void {
    this.subscription = this.events.subscribeToAll({ after: this.position, streamPrefixes: [...this.source.streamPrefixes] }, (event) => this.handle(event));
    this.subscription.done.then(
      () => undefined,
      (error: unknown) => {
        if (this.stopping) return;
        this.logger.error({ msg: 'webhook fan-out failed; restarting from its last position', err: error instanceof Error ? error.message : String(error) });
        this.restart = setTimeout(() => !this.stopping && this.subscribe(), RESTART_DELAY_MS);
        this.restart.unref();
      },
    );
  }

  private async handle(event: RecordedEvent): Promise<void> {
    const notification = this.registry.has(event.type) ? this.source.notificationOf(this.registry.upcast(event)) : undefined;
    let queued = false;
    if (notification && isSubscribed(await this.webhooks.state(notification.account_id), notification.event_type)) {
      await this.jobs.deliver(notification);
      queued = true;
    }
    this.position = event.position;
    if (queued || Date.now() - this.lastSave >= CHECKPOINT_EVERY_MS) await this.save();
  }

  private async save(): Promise<void> {
    if (this.position === this.saved) return;
    await this.readStore.setCheckpoint(FAN_OUT_CHECKPOINT, this.position);
    this.saved = this.position;
    this.lastSave = Date.now();
  }
}
