import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port.js';
import type { IntegrationMessage, IntegrationPublisher } from '../integration/integration-bus.port.js';
import type { JsonLogger } from '../logging/json-logger.js';
import type { ReadStore } from '../read-store/read-store.port.js';

const BATCH = 500;
const LINGER_MS = 20;
const RETRY_MIN_MS = 200;
const RETRY_MAX_MS = 10_000;
export const RELAY_CHECKPOINT = 'relay:integration';

/**
 * Publishes every stored event to the integration bus from a checkpointed
 * subscription, never in-process after an append: an event is relayed once it
 * is durable, and a crash replays from the checkpoint (at-least-once; consumers
 * deduplicate on the `event-id` header). The message key is the stream name,
 * so per-stream order holds on one partition.
 */
export class IntegrationRelay {
  private subscription?: Subscription;
  private buffer: RecordedEvent[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private published = 0n;

  constructor(
    private readonly events: EventStore,
    private readonly checkpoints: ReadStore,
    private readonly publisher: IntegrationPublisher,
    private readonly topicPrefix: string,
    private readonly logger: JsonLogger,
  ) {}

  async start(): Promise<void> {
    this.published = (await this.checkpoints.getCheckpoint(RELAY_CHECKPOINT)) ?? 0n;
    this.subscription = this.events.subscribeToAll({ after: this.published }, async (event) => {
      this.buffer.push(event);
      if (this.buffer.length >= BATCH) await this.flush();
      else this.timer ??= setTimeout(() => void this.flush(), LINGER_MS);
    });
    this.subscription.done.catch((error: unknown) => {
      if (!this.stopped) this.logger.error({ msg: 'integration relay stopped', err: String(error) });
    });
  }

  /** Position of the last event acknowledged by the broker. */
  get position(): bigint {
    return this.published;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.subscription?.stop();
    await this.flush();
  }

  private flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.buffer;
    this.buffer = [];
    if (batch.length === 0) return this.flushing;
    this.flushing = this.flushing.then(() => this.publishWithRetry(batch));
    return this.flushing;
  }

  private async publishWithRetry(batch: RecordedEvent[]): Promise<void> {
    const messages = batch.map((event) => toMessage(event, this.topicPrefix));
    for (let delay = RETRY_MIN_MS; ; delay = Math.min(delay * 2, RETRY_MAX_MS)) {
      try {
        await this.publisher.publish(messages);
        break;
      } catch (error) {
        if (this.stopped) throw error;
        this.logger.warn({ msg: 'integration publish failed; retrying', delay_ms: delay, err: String(error) });
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
    this.published = batch[batch.length - 1].position;
    await this.checkpoints.setCheckpoint(RELAY_CHECKPOINT, this.published);
  }
}

/** Topic per stream category: `<prefix>.<category>` where the category is the stream name up to its first dash. */
export function toMessage(event: RecordedEvent, topicPrefix: string): IntegrationMessage {
  const dash = event.streamName.indexOf('-');
  const category = dash > 0 ? event.streamName.slice(0, dash) : event.streamName;
  return {
    topic: `${topicPrefix}.${category.replace(/[^A-Za-z0-9._-]/g, '_')}`,
    key: event.streamName,
    value: JSON.stringify({
      id: event.id,
      type: event.type,
      stream: event.streamName,
      revision: event.revision.toString(),
      position: event.position.toString(),
      created_at: event.createdAt.toISOString(),
      data: event.data,
      metadata: event.metadata,
    }),
    headers: { 'event-id': event.id, 'event-type': event.type, 'content-type': 'application/json' },
  };
}
