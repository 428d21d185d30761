import type { CommandBus } from '@nestjs/cqrs';
import { LogFollower, type CommandPipeline, type EventRegistry, type EventStore, type FollowedView, type JsonLogger, type ReadStore, type RecordedEvent } from '../../../platform/src/index.js';
import { EraseDeliveriesCommand } from '../commands/erase-deliveries/erase-deliveries.handler.js';
import { configureWebhook } from '../webhook-commands.js';
import { isSubscribed, webhookStream } from '../domain/webhook.js';
import type { NotificationCipher } from '../notifications/notification-cipher.js';
import type { NotificationSources, ResolvedSource } from '../notifications/notification-sources.js';
import type { WebhookJobs } from './webhook-jobs.js';

/** The fan-out's position in the log, kept in the read store like a projection's (unchanged, so existing data resumes). */
export const FAN_OUT_CHECKPOINT = 'webhook_fan_out';

/**
 * Webhook fan-out, derived from the event stream and never sent inline
 * (docs/adr/0010): a sink under a checkpointed LogFollower over the streams of
 * every notification source. For each event a source turns into a
 * notification, when the account's webhook subscribes to its type, a delivery
 * job is queued (sealed: no customer id in the queue). Events come at least
 * once and job ids are deterministic, so an event seen twice queues one job;
 * the checkpoint only covers events whose job is stored. An event a source
 * reports as an erasure erases the customer's deliveries of the types it took
 * (`EraseDeliveriesCommand` through the CommandBus: the reaction stays on this
 * checkpointed follower, the bus only dispatches the command it runs).
 *
 * Subscription is judged when the fan-out reads the event (normally
 * milliseconds after it was stored); the delivery checks it again per attempt.
 */
export class WebhookFanOut implements FollowedView {
  readonly follower: LogFollower;

  constructor(
    events: EventStore,
    readStore: ReadStore,
    registry: EventRegistry,
    private readonly sources: NotificationSources,
    private readonly streams: CommandPipeline,
    private readonly cipher: NotificationCipher,
    private readonly jobs: WebhookJobs,
    private readonly commands: Pick<CommandBus, 'execute'>,
    logger?: Pick<JsonLogger, 'error' | 'warn'>,
  ) {
    this.follower = new LogFollower(
      events,
      registry,
      readStore,
      {
        name: 'webhook fan-out',
        streamPrefixes: sources.streamPrefixes,
        handles: sources.handles,
        start: { from: 'checkpoint', key: FAN_OUT_CHECKPOINT },
        sink: { handle: (event) => this.handle(event) },
      },
      logger,
    );
  }

  start(): Promise<void> {
    return this.follower.start();
  }

  stop(): Promise<void> {
    return this.follower.stop();
  }

  private async handle(event: RecordedEvent): Promise<void> {
    for (const entry of this.sources.all) {
      if (!entry.source.streamPrefixes.some((prefix) => event.streamName.startsWith(prefix))) continue;
      await this.notify(entry, event);
      const erasure = entry.source.erasureOf?.(event);
      if (erasure) {
        const foreign = erasure.event_types.filter((type) => !entry.notifies.includes(type));
        if (foreign.length > 0) throw new Error(`the ${entry.context} notification source erased types it does not notify: ${foreign.join(', ')}`);
        await this.commands.execute(new EraseDeliveriesCommand(erasure));
      }
    }
  }

  private async notify(entry: ResolvedSource, event: RecordedEvent): Promise<void> {
    const notification = entry.source.notificationOf(event);
    if (!notification) return;
    if (!entry.notifies.includes(notification.event_type)) throw new Error(`the ${entry.context} notification source produced ${notification.event_type}, which it does not declare`);
    const { state } = await this.streams.read(configureWebhook, webhookStream(notification.account_id));
    if (isSubscribed(state, notification.event_type)) await this.jobs.deliver(this.cipher.seal(notification));
  }
}
