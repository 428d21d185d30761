import { TimeoutError } from '../errors.js';
import type { EventStore, RecordedEvent, Subscription } from '../event-store/event-store.port.js';
import type { EventRegistry } from '../events/event-registry.js';
import type { JsonLogger } from '../logging/json-logger.js';
import type { ReadStore } from '../read-store/read-store.port.js';
import type { FollowerGate } from './lease-keeper.js';

const READ_PAGE_SIZE = 5000;
/** Writes of a pipelined sink in flight at once before the follower waits for them. */
const PIPELINE_DEPTH = 256;

/**
 * Where a follower starts:
 * - `checkpoint`: after the position stored under `key` in the read store
 *   (projections, fan-out, relay); it writes that checkpoint as it goes.
 * - `beginning`: reads the whole log before `start` resolves, then follows
 *   (in-memory views that must be complete before the first request).
 * - `load`: fills the view from a read model with `load`, then follows from
 *   that read model's checkpoint `key`; everything, when there is none or a
 *   rebuild moved it back meanwhile. The read model may be ahead of its
 *   checkpoint, so the sink must tolerate seeing an event again.
 */
export type FollowerStart = { from: 'checkpoint'; key: string } | { from: 'beginning' } | { from: 'load'; key: string; load: () => Promise<void> };

/** What a follower hands events to. */
export interface FollowerSink {
  /** One event, opened and upcast, in log order. A throw restarts the follower from its last durable position. */
  handle(event: RecordedEvent): Promise<void> | void;
  /** Makes everything handled so far durable downstream (a relay's batch); runs before each checkpoint. */
  flush?(): Promise<void>;
  /** Drops what was handled but not flushed: the follower restarts from its last durable position. */
  reset?(): void;
}

export interface FollowerSpec {
  /** What logs, health and timeouts call it: `projection drift_state`, `key directory`. */
  name: string;
  /** Only streams starting with one of these; empty follows every stream. */
  streamPrefixes: readonly string[];
  /** Only these event types reach the sink (others only move the position); absent: every type. */
  handles?: readonly string[];
  /** Unsealing under a stream codec, before upcasting; undefined skips the event. */
  open?: (event: RecordedEvent) => Promise<RecordedEvent | undefined>;
  start: FollowerStart;
  sink: FollowerSink;
  /** Checkpoint (and flush) at most this often; default 100 ms. */
  checkpointEveryMs?: number;
  /** …or after this many events; default 500. */
  checkpointEveryEvents?: number;
  /**
   * The sink's `handle` queues its write in its synchronous part, and writes
   * queued one after another take effect in that order without being awaited
   * one by one (the embedded read store: its transactions run in call order,
   * and those queued in one turn share one commit). The follower then hands on
   * the next events without waiting for each write (up to PIPELINE_DEPTH in
   * flight); its position, its waiters and its checkpoint still move only as
   * the writes complete, in order. A projection applied one event per commit
   * ran ~110 s behind a 20 s burst (issue 31).
   */
  pipelined?: boolean;
}

export interface FollowerOptions {
  /** First restart delay after a failure; doubles up to `restartMaxMs`. */
  restartMinMs?: number;
  restartMaxMs?: number;
  /** Consecutive failures after which the follower reports itself stuck. */
  stuckAfterFailures?: number;
  /** A restarted subscription that runs this long without failing counts as recovered, events or not. */
  recoveredAfterMs?: number;
}

export interface FollowerStatus {
  name: string;
  /** Last position handled (or skipped past). */
  position: string;
  /** Last position made durable (checkpointed, flushed). */
  durable: string;
  failures: number;
  stuck: boolean;
  last_error: string | null;
}

/**
 * The one kind of thing that follows the log (style.md: "Anything that follows
 * the log … is one follower kind"): projections, in-memory views, the webhook
 * fan-out and the Kafka relay are each a sink under a LogFollower. It hands
 * each event on opened (codec) and upcast, in order; checkpoints where asked;
 * restarts with exponential backoff after any failure, from the last durable
 * position; lets commands wait (`waitFor`) for a position; and reports itself
 * stuck after repeated failures (`status`, surfaced by /health).
 */
export class LogFollower {
  private handled = 0n;
  private durable = 0n;
  private subscription?: Subscription;
  private waiters: Array<{ position: bigint; resolve: () => void }> = [];
  private stopping = false;
  private restartTimer?: NodeJS.Timeout;
  private saveTimer?: NodeJS.Timeout;
  private failures = 0;
  private lastError: string | null = null;
  private lastSave = Date.now();
  private sinceSave = 0;
  private saving: Promise<void> = Promise.resolve();
  /** Bumped whenever the follower gives up on a subscription: events a stopping subscription still delivers are dropped. */
  private generation = 0;
  /** A restart is pending: nothing is handled or saved until it resubscribes from the last durable position. */
  private restarting = false;
  private readonly handles?: ReadonlySet<string>;
  /** A pipelined sink's writes in flight, chained in log order; each advances the position when it completes. */
  private pipeline: Promise<void> = Promise.resolve();
  private inFlight = 0;
  /** A checkpointed follower among several workers runs only while this process holds the followers lease (Followers.add). */
  private gate?: FollowerGate;
  /** Started, but waiting for (or between terms of) the lease. */
  private standing = false;

  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly checkpoints: ReadStore | undefined,
    readonly spec: FollowerSpec,
    private readonly logger?: Pick<JsonLogger, 'error' | 'warn'>,
    private readonly options: FollowerOptions = {},
  ) {
    if (spec.handles) {
      registry.assertKnown(spec.handles, spec.name);
      this.handles = new Set(spec.handles);
    }
    if (spec.start.from !== 'beginning' && !checkpoints) throw new Error(`${spec.name} starts from a checkpoint but has no read store`);
  }

  get name(): string {
    return this.spec.name;
  }

  /** Last position handled (or skipped past). */
  get position(): bigint {
    return this.handled;
  }

  /**
   * Runs this follower only while `gate` is held: it starts (from its
   * checkpoint) when the process takes the lease, and stops without writing
   * further when the process loses it; a write or checkpoint is never made
   * once the gate says the lease is gone (the fence). Only followers that
   * write from a checkpoint are gated: views read, in every process.
   */
  gateWith(gate: FollowerGate): void {
    if (this.spec.start.from !== 'checkpoint' || this.gate) return;
    this.gate = gate;
    gate.onChange((held) => {
      if (!this.standing) return;
      if (held) void this.startHeld().catch((error: unknown) => this.log('error', 'follower could not start on taking the lease', error));
      else this.pause();
    });
  }

  /** Runs only while a lease is held (gateWith). */
  get gated(): boolean {
    return this.gate !== undefined;
  }

  /** Starts following; with `from: 'beginning'` resolves once the whole log so far is applied. */
  async start(): Promise<void> {
    if (this.gate) {
      this.standing = true;
      this.stopping = false;
      if (this.gate.held()) await this.startHeld();
      return;
    }
    await this.startHeld();
  }

  private async startHeld(): Promise<void> {
    this.stopping = false;
    const start = this.spec.start;
    if (start.from === 'checkpoint') {
      this.resumeFrom((await this.checkpoints!.getCheckpoint(start.key)) ?? 0n);
    } else if (start.from === 'load') {
      const checkpoint = await this.checkpoints!.getCheckpoint(start.key);
      let after = 0n;
      if (checkpoint !== undefined) {
        await start.load();
        const now = await this.checkpoints!.getCheckpoint(start.key);
        if (now !== undefined && now >= checkpoint) after = checkpoint;
      }
      this.resumeFrom(after);
    } else {
      let after = this.handled;
      // Only the followed streams: the embedded store reads them from its category index, so a view's start
      // costs what its own streams hold, not the whole log (a full scan per view made a restart grow with the data).
      const streamPrefixes = this.spec.streamPrefixes.length > 0 ? this.spec.streamPrefixes : undefined;
      for (;;) {
        const page = await this.events.readAll({ after, maxCount: READ_PAGE_SIZE, streamPrefixes });
        if (page.length === 0) break;
        for (const event of page) if (this.follows(event.streamName)) await this.deliver(event);
        await this.pipeline;
        after = page[page.length - 1].position;
        this.advance(after);
      }
      this.durable = this.handled;
    }
    this.subscribe();
  }

  /** Resolves once every event up to `position` is handled here; TimeoutError after `timeoutMs`. */
  waitFor(position: bigint, timeoutMs: number): Promise<void> {
    if (this.handled >= position) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((waiter) => waiter.resolve !== done);
        reject(new TimeoutError(`${this.spec.name} did not reach position ${position} within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.waiters.push({ position, resolve: done });
    });
  }

  /**
   * Stops following (and restarting), then flushes and checkpoints what was
   * handled. From inside its own sink, await it only from the sink's
   * synchronous part when the follower has no `open` (the sink is then called
   * within the subscription handler's synchronous part); otherwise call it
   * without awaiting (`void follower.stop()`): see `Subscription.stop`.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    this.standing = false;
    clearTimeout(this.restartTimer);
    clearTimeout(this.saveTimer);
    this.restartTimer = undefined;
    await this.subscription?.stop();
    await this.pipeline;
    await this.save().catch((error: unknown) => this.log('error', 'follower could not save on stop', error));
  }

  /** The lease is gone: stop following and drop what is not durable, without writing; the next term starts from the checkpoint. */
  private pause(): void {
    if (this.subscription === undefined && this.restartTimer === undefined) return;
    this.generation++;
    clearTimeout(this.restartTimer);
    clearTimeout(this.saveTimer);
    this.restartTimer = undefined;
    this.saveTimer = undefined;
    this.restarting = false;
    const subscription = this.subscription;
    this.subscription = undefined;
    this.spec.sink.reset?.();
    this.handled = this.durable;
    void subscription?.stop();
  }

  status(): FollowerStatus {
    return {
      name: this.spec.name,
      position: this.handled.toString(),
      durable: this.durable.toString(),
      failures: this.failures,
      stuck: this.failures >= (this.options.stuckAfterFailures ?? 3),
      last_error: this.lastError,
    };
  }

  private resumeFrom(position: bigint): void {
    this.handled = position;
    this.durable = position;
    this.advance(position);
  }

  private follows(stream: string): boolean {
    return this.spec.streamPrefixes.length === 0 || this.spec.streamPrefixes.some((prefix) => stream.startsWith(prefix));
  }

  private async deliver(recorded: RecordedEvent): Promise<void> {
    let handled: Promise<void> | void = undefined;
    if (!this.handles || this.handles.has(recorded.type)) {
      const opened = this.spec.open ? await this.spec.open(recorded) : recorded;
      if (opened) handled = this.spec.sink.handle(this.registry.upcast(opened));
    }
    if (!this.spec.pipelined) {
      await handled;
      this.advance(recorded.position);
      return;
    }
    // Behind the writes already in flight, in log order: a skipped event must not move the position past them.
    const generation = this.generation;
    const subscription = this.subscription;
    const write = Promise.resolve(handled);
    write.catch(() => undefined);
    this.inFlight++;
    this.pipeline = this.pipeline
      .then(async () => {
        await write;
        if (generation === this.generation) this.advance(recorded.position);
      })
      .catch((error: unknown) => {
        // As a failed handle: restart from the last durable position (the writes after it are idempotent).
        if (subscription && generation === this.generation) {
          this.failed(subscription, error);
          void subscription.stop();
        }
      })
      .finally(() => {
        this.inFlight--;
      });
    if (this.inFlight >= PIPELINE_DEPTH) await this.pipeline;
  }

  private advance(position: bigint): void {
    if (position > this.handled) this.handled = position;
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((waiter) => waiter.position <= this.handled);
    this.waiters = this.waiters.filter((waiter) => waiter.position > this.handled);
    for (const waiter of ready) waiter.resolve();
  }

  private subscribe(): void {
    const prefixes = this.spec.streamPrefixes.length > 0 ? [...this.spec.streamPrefixes] : undefined;
    const generation = ++this.generation;
    const subscription = this.events.subscribeToAll({ after: this.handled === 0n ? undefined : this.handled, streamPrefixes: prefixes }, async (event) => {
      if (generation !== this.generation || this.restarting) return;
      if (this.gate && !this.gate.held()) {
        // The fence: nothing more is written without the lease (the keeper's next round stops the follower).
        this.pause();
        return;
      }
      await this.deliver(event);
      this.sinceSave++;
      this.afterEvent();
      if (this.failures > 0) {
        this.failures = 0;
        this.lastError = null;
      }
    });
    this.subscription = subscription;
    subscription.done.then(
      () => undefined,
      (error: unknown) => this.failed(subscription, error),
    );
  }

  private afterEvent(): void {
    if (this.spec.start.from === 'beginning' || this.spec.start.from === 'load') {
      this.durable = this.handled;
      return;
    }
    const everyMs = this.spec.checkpointEveryMs ?? 100;
    if (this.sinceSave >= (this.spec.checkpointEveryEvents ?? 500) || Date.now() - this.lastSave >= everyMs) {
      void this.saveInBackground();
    } else {
      this.saveTimer ??= setTimeout(() => {
        this.saveTimer = undefined;
        void this.saveInBackground();
      }, everyMs);
      this.saveTimer.unref?.();
    }
  }

  private saveInBackground(): Promise<void> {
    return this.save().catch((error: unknown) => {
      // Nothing is lost: the follower restarts from its last durable position.
      const subscription = this.subscription;
      if (!subscription) return;
      this.generation++;
      this.failed(subscription, error);
      void subscription.stop();
    });
  }

  /** Flushes the sink, then writes the checkpoint; serialised, so checkpoints never go backwards. */
  private save(): Promise<void> {
    const run = this.saving.then(async () => {
      const position = this.handled;
      if (this.restarting || (position === this.durable && this.sinceSave === 0)) return;
      // Without the lease, neither the sink's buffer nor the checkpoint is written: the next holder goes on from the last checkpoint.
      if (this.gate && !this.gate.held()) return;
      await this.spec.sink.flush?.();
      if (this.spec.start.from === 'checkpoint' && position > this.durable) await this.checkpoints!.setCheckpoint(this.spec.start.key, position);
      if (position > this.durable) this.durable = position;
      this.lastSave = Date.now();
      this.sinceSave = 0;
    });
    // A failed save must not fail every later one: the chain only orders them.
    this.saving = run.catch(() => undefined);
    return run;
  }

  private failed(subscription: Subscription, error: unknown): void {
    if (this.stopping || this.subscription !== subscription || this.restarting) return;
    this.restarting = true;
    this.generation++;
    this.failures++;
    this.lastError = error instanceof Error ? error.message : String(error);
    const min = this.options.restartMinMs ?? 200;
    const delay = Math.min(min * 2 ** Math.min(this.failures - 1, 16), this.options.restartMaxMs ?? 30_000);
    this.log('error', 'follower failed; restarting from its last durable position', error, { delay_ms: delay, failures: this.failures });
    this.restartTimer = setTimeout(() => this.restart(), delay);
    this.restartTimer.unref?.();
  }

  private restart(): void {
    this.restartTimer = undefined;
    this.restarting = false;
    if (this.stopping) return;
    // With nothing new in the log, no event would prove the restart worked: a quiet spell does.
    const failures = this.failures;
    const recovered = setTimeout(() => {
      if (!this.restarting && this.failures === failures) {
        this.failures = 0;
        this.lastError = null;
      }
    }, this.options.recoveredAfterMs ?? 2000);
    recovered.unref?.();
    // What was handled but not flushed is handed on again: the sink drops its unflushed part first.
    this.spec.sink.reset?.();
    // A buffering sink (flush) lost its unflushed part: resume after what it made durable.
    if (this.spec.sink.flush) this.handled = this.durable;
    try {
      this.subscribe();
    } catch (error) {
      // The store refuses a new subscription (closed): nothing left to follow.
      this.log('error', 'follower could not restart', error);
    }
  }

  private log(level: 'error' | 'warn', msg: string, error: unknown, extra: Record<string, unknown> = {}): void {
    this.logger?.[level]({ msg, follower: this.spec.name, err: error instanceof Error ? error.message : String(error), ...extra });
  }
}
