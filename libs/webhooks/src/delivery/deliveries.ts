import {
  appendDecided,
  ConcurrencyError,
  loadStream,
  type Clock,
  type EventRegistry,
  type EventStore,
} from '../../../platform/src/index.js';
import {
  decideDelivery,
  DeliveryNotFoundError,
  deliveryStream,
  evolveDelivery,
  initialDeliveryState,
  type DeliveryCommand,
  type DeliveryEvent,
  type DeliveryState,
} from '../domain/delivery.js';
import { WebhookNotConfiguredError } from '../domain/webhook.js';
import type { Webhooks } from '../webhooks.js';
import type { WebhookJobs } from './webhook-jobs.js';

/** A recorded attempt is a fact; on a concurrent write (a manual re-send racing a retry) it is decided again on the new state. */
const APPEND_TRIES = 5;

/** The delivery streams: recording attempts and manual re-send requests. */
export class Deliveries {
  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly clock: Clock,
    private readonly webhooks: Webhooks,
    private readonly jobs: WebhookJobs,
  ) {}

  async state(accountId: string, deliveryId: string): Promise<DeliveryState> {
    const { state } = await this.load(accountId, deliveryId);
    return state;
  }

  async record(accountId: string, deliveryId: string, command: DeliveryCommand): Promise<DeliveryState> {
    const { state } = await this.execute(accountId, deliveryId, () => command);
    return state;
  }

  /**
   * POST /v2/webhooks/retry/{deliveryId}: records the request (the delivery
   * shows `attempted`), then queues a re-send. Another account's delivery is
   * a different stream, so it is as unknown as a made-up id: 404.
   */
  async requestRetry(accountId: string, deliveryId: string): Promise<{ requested_at: string }> {
    await this.assertRetryable(accountId, deliveryId);
    const now = this.clock.now();
    const { state, revision } = await this.execute(accountId, deliveryId, () => ({ type: 'RequestRetry', delivery_id: deliveryId, account_id: accountId, now }));
    if (state.status === 'none') throw new Error('a retry request left the delivery unknown');
    await this.jobs.redeliver(state.notification, revision);
    return { requested_at: now.toISOString() };
  }

  /** Refused before anything is recorded: without an endpoint the re-send could only be abandoned. */
  private async assertRetryable(accountId: string, deliveryId: string): Promise<void> {
    const state = await this.state(accountId, deliveryId);
    if (state.status === 'none') throw new DeliveryNotFoundError(deliveryId);
    if ((await this.webhooks.state(accountId)).status !== 'configured') throw new WebhookNotConfiguredError();
  }

  private load(accountId: string, deliveryId: string) {
    return loadStream(this.events, this.registry, deliveryStream(accountId, deliveryId), evolveDelivery, initialDeliveryState);
  }

  private async execute(accountId: string, deliveryId: string, command: () => DeliveryCommand): Promise<{ state: DeliveryState; revision: bigint }> {
    const stream = deliveryStream(accountId, deliveryId);
    for (let tries = 1; ; tries++) {
      const { state, revision } = await this.load(accountId, deliveryId);
      const decided: DeliveryEvent[] = decideDelivery(command(), state);
      try {
        const appended = await appendDecided(this.events, this.registry, stream, decided, revision);
        return { state: decided.reduce(evolveDelivery, state), revision: appended.nextExpectedRevision };
      } catch (error) {
        if (!(error instanceof ConcurrencyError) || tries >= APPEND_TRIES) throw error;
      }
    }
  }
}
