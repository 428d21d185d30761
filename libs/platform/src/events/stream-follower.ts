import { TimeoutError } from '../errors.js';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port.js';
import type { JsonLogger } from '../logging/json-logger.js';
import type { ReadStore } from '../read-store/read-store.port.js';

const RESTART_DELAY_MS = 1000;
const READ_PAGE_SIZE = 5000;

export interface StreamFollowerOptions {
  /** What timeouts and logs call the view, e.g. `key directory`. */
  name: string;
  /** The streams the view follows (at least one prefix). */
  streamPrefixes: string[];
  /** Applies one event to the view; a throw fails the subscription, which restarts from the last applied event. */
  apply: (event: RecordedEvent) => void;
  logger?: Pick<JsonLogger, 'error'>;
  /** Logger context of the failure lines. */
  logContext?: string;
  restartDelayMs?: number;
}

/**
 * The mechanics of an in-memory view kept current by a catch-up subscription
 * to some stream prefixes: it applies each event in order through `apply`,
 * lets callers wait (`waitFor`) until a position is applied (read-your-own-write
 * for commands), resubscribes from the last applied event after a failure,
 * and stops. The view itself (its maps and how an event changes them) stays
 * with its owner.
 */
export class StreamFollower {
  private applied = 0n;
  /** Where a (re)subscription starts: strictly after this position; undefined is the very start. */
  private resumeAfter: bigint | undefined;
  private subscription?: Subscription;
  private waiters: Array<{ position: bigint; resolve: () => void }> = [];
  private stopping = false;
  private restartTimer?: ReturnType<typeof setTimeout>;

  constructor(
    private readonly events: EventStore,
    private readonly options: StreamFollowerOptions,
  ) {}

  /** Last position this view has applied (or skipped past). */
  get position(): bigint {
    return this.applied;
  }

  /** Follows the streams strictly after `after` (undefined: from the very start). */
  follow(after: bigint | undefined): void {
    this.resumeAfter = after;
    this.advance(after ?? 0n);
    this.subscribe();
  }

  /**
   * Reads the whole log first, applying the followed events, so the view holds
   * every event already written when this resolves; then follows live.
   */
  async readAllThenFollow(): Promise<void> {
    let after = this.applied;
    for (;;) {
      const page = await this.events.readAll({ after, maxCount: READ_PAGE_SIZE });
      if (page.length === 0) break;
      for (const event of page) if (this.follows(event.streamName)) this.handle(event);
      after = page[page.length - 1].position;
    }
    this.follow(after);
  }

  /**
   * Starts from a read model instead of the whole log: when the checkpoint
   * `checkpointKey` exists, `load` fills the view from the read model, then the
   * view follows from that checkpoint. The read model may be ahead of its
   * checkpoint, so `apply` must tolerate seeing some events again. A rebuild
   * that cleared the read model meanwhile leaves it behind its old checkpoint:
   * then everything is replayed.
   */
  async loadThenFollow(readStore: ReadStore, checkpointKey: string, load: () => Promise<void>): Promise<void> {
    const checkpoint = await readStore.getCheckpoint(checkpointKey);
    let after: bigint | undefined = checkpoint;
    if (checkpoint !== undefined) {
      await load();
      const now = await readStore.getCheckpoint(checkpointKey);
      if (now === undefined || now < checkpoint) after = undefined;
    }
    this.follow(after);
  }

  /** Resolves once every event up to `position` is applied here; TimeoutError after `timeoutMs`. */
  waitFor(position: bigint, timeoutMs: number): Promise<void> {
    if (this.applied >= position) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter.resolve !== done);
        reject(new TimeoutError(`${this.options.name} did not reach position ${position} within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push({ position, resolve: done });
    });
  }

  /** Stops following, and restarting; safe to call from inside `apply`. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    await this.subscription?.stop();
  }

  private follows(stream: string): boolean {
    return this.options.streamPrefixes.some((prefix) => stream.startsWith(prefix));
  }

  private handle(event: RecordedEvent): void {
    this.options.apply(event);
    this.resumeAfter = event.position;
    this.advance(event.position);
  }

  private advance(position: bigint): void {
    if (position > this.applied) this.applied = position;
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((waiter) => waiter.position <= this.applied);
    this.waiters = this.waiters.filter((waiter) => waiter.position > this.applied);
    for (const waiter of ready) waiter.resolve();
  }

  private subscribe(): void {
    const subscription = this.events.subscribeToAll({ after: this.resumeAfter, streamPrefixes: this.options.streamPrefixes }, (event) => this.handle(event));
    this.subscription = subscription;
    subscription.done.then(
      () => undefined,
      (error: unknown) => {
        if (this.stopping || this.subscription !== subscription) return;
        this.log('stream follower failed; restarting from its last position', error);
        this.restartTimer = setTimeout(() => this.restart(), this.options.restartDelayMs ?? RESTART_DELAY_MS);
        this.restartTimer.unref?.();
      },
    );
  }

  private restart(): void {
    this.restartTimer = undefined;
    if (this.stopping) return;
    try {
      this.subscribe();
    } catch (error) {
      // The store refuses a new subscription (closed): nothing left to follow.
      this.log('stream follower could not restart', error);
    }
  }

  private log(msg: string, error: unknown): void {
    this.options.logger?.error({ msg, follower: this.options.name, err: error instanceof Error ? error.message : String(error) }, this.options.logContext);
  }
}
