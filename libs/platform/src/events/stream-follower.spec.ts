import { describe, expect, it, jest } from '@jest/globals';
import { TimeoutError } from '../errors.js';
import type { EventHandler, EventStore, ReadAllOptions, RecordedEvent, SubscribeOptions, Subscription } from '../event-store/event-store.port.js';
import type { ReadStore } from '../read-store/read-store.port.js';
import { StreamFollower } from './stream-follower.js';

/** A log in memory with catch-up subscriptions that deliver history on a later tick, then live appends; a throwing handler rejects `done`. */
class FakeLog {
  readonly events: RecordedEvent[] = [];
  readonly subscribed: SubscribeOptions[] = [];
  private readonly live = new Set<FakeSubscription>();

  append(streamName: string, type = 'Happened'): RecordedEvent {
    const event: RecordedEvent = {
      id: `e${this.events.length + 1}`,
      streamName,
      type,
      data: {},
      metadata: {},
      revision: 0n,
      position: BigInt(this.events.length + 1),
      createdAt: new Date(0),
    };
    this.events.push(event);
    for (const subscription of this.live) subscription.offer(event);
    return event;
  }

  store(): EventStore {
    return {
      readAll: async (options: ReadAllOptions = {}) => this.events.filter((event) => event.position > (options.after ?? 0n)).slice(0, options.maxCount),
      subscribeToAll: (options: SubscribeOptions, handler: EventHandler): Subscription => {
        this.subscribed.push(options);
        const subscription = new FakeSubscription(options, handler, () => this.live.delete(subscription));
        this.live.add(subscription);
        void Promise.resolve().then(() => {
          for (const event of this.events) if (event.position > (options.after ?? 0n)) subscription.offer(event);
        });
        return subscription;
      },
    } as unknown as EventStore;
  }
}

class FakeSubscription implements Subscription {
  readonly done: Promise<void>;
  private settle!: { resolve: () => void; reject: (error: unknown) => void };
  private ended = false;
  /** History and live appends may both offer an event: each is delivered once, in order. */
  private delivered: bigint;

  constructor(
    private readonly options: SubscribeOptions,
    private readonly handler: EventHandler,
    private readonly onEnd: () => void,
  ) {
    this.done = new Promise((resolve, reject) => (this.settle = { resolve, reject }));
    this.delivered = options.after ?? 0n;
  }

  offer(event: RecordedEvent): void {
    if (this.ended || event.position <= this.delivered) return;
    this.delivered = event.position;
    if (!(this.options.streamPrefixes ?? ['']).some((prefix) => event.streamName.startsWith(prefix))) return;
    try {
      void this.handler(event);
    } catch (error) {
      this.end();
      this.settle.reject(error);
    }
  }

  async stop(): Promise<void> {
    if (!this.ended) this.settle.resolve();
    this.end();
  }

  private end(): void {
    this.ended = true;
    this.onEnd();
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 1));
  expect(condition()).toBe(true);
}

function follower(log: FakeLog, apply: (event: RecordedEvent) => void, logger?: { error: (...args: unknown[]) => void }): StreamFollower {
  return new StreamFollower(log.store(), { name: 'the test view', streamPrefixes: ['a-', 'b-'], apply, logger, logContext: 'test', restartDelayMs: 1 });
}

describe('StreamFollower', () => {
  it('applies the followed events already in the log, in order, before readAllThenFollow resolves, then live ones', async () => {
    const log = new FakeLog();
    log.append('a-1');
    log.append('other-1');
    log.append('b-1');
    const seen: string[] = [];
    const view = follower(log, (event) => seen.push(`${event.streamName}@${event.position}`));
    await view.readAllThenFollow();
    expect(seen).toEqual(['a-1@1', 'b-1@3']);
    log.append('other-2');
    log.append('a-2');
    await until(() => seen.length === 3);
    expect(seen).toEqual(['a-1@1', 'b-1@3', 'a-2@5']);
    expect(log.subscribed).toEqual([{ after: 3n, streamPrefixes: ['a-', 'b-'] }]);
    await view.stop();
  });

  it('counts a position it read past without applying as reached', async () => {
    const log = new FakeLog();
    log.append('a-1');
    log.append('other-1');
    const view = follower(log, () => undefined);
    await view.readAllThenFollow();
    expect(view.position).toBe(2n);
    await expect(view.waitFor(2n, 1000)).resolves.toBeUndefined();
    await view.stop();
  });

  it('waitFor resolves once its position is applied, not before, and rejects with TimeoutError naming the view', async () => {
    const log = new FakeLog();
    const view = follower(log, () => undefined);
    view.follow(undefined);
    let second = false;
    const first = view.waitFor(1n, 5000);
    const later = view.waitFor(2n, 5000).then(() => (second = true));
    log.append('a-1');
    await first;
    expect(view.position).toBe(1n);
    expect(second).toBe(false);
    log.append('b-1');
    await later;
    expect(second).toBe(true);
    await expect(view.waitFor(9n, 5)).rejects.toThrow(new TimeoutError('the test view did not reach position 9 within 5 ms'));
    await view.stop();
  });

  it('restarts a failed subscription from the last applied event and logs the failure', async () => {
    const log = new FakeLog();
    const logger = { error: jest.fn<(...args: unknown[]) => void>() };
    const seen: bigint[] = [];
    let failures = 0;
    const view = follower(
      log,
      (event) => {
        if (event.position === 2n && failures++ === 0) throw new Error('transient');
        seen.push(event.position);
      },
      logger,
    );
    view.follow(undefined);
    log.append('a-1');
    log.append('a-2');
    log.append('a-3');
    await view.waitFor(3n, 5000);
    expect(seen).toEqual([1n, 2n, 3n]);
    expect(log.subscribed.map((options) => options.after)).toEqual([undefined, 1n]);
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ follower: 'the test view', err: 'transient' }), 'test');
    await view.stop();
  });

  it('stop ends the subscription: later events are not applied and a failure no longer restarts it', async () => {
    const log = new FakeLog();
    const seen: bigint[] = [];
    const view = follower(log, (event) => {
      if (event.streamName === 'b-boom') throw new Error('boom');
      seen.push(event.position);
    });
    view.follow(undefined);
    log.append('a-1');
    await view.waitFor(1n, 5000);
    await view.stop();
    log.append('a-2');
    log.append('b-boom');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(seen).toEqual([1n]);
    expect(log.subscribed).toHaveLength(1);
  });

  it('stops restarting once stopped while a restart is pending', async () => {
    const log = new FakeLog();
    const view = new StreamFollower(log.store(), {
      name: 'the test view',
      streamPrefixes: ['a-'],
      apply: () => {
        throw new Error('always');
      },
      restartDelayMs: 10,
    });
    view.follow(undefined);
    log.append('a-1');
    await new Promise((resolve) => setTimeout(resolve, 1));
    await view.stop();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(log.subscribed).toHaveLength(1);
  });

  describe('loadThenFollow', () => {
    function readStore(checkpoints: Array<bigint | undefined>): ReadStore {
      return { getCheckpoint: async () => checkpoints.shift() } as unknown as ReadStore;
    }

    it('loads the read model and follows after its checkpoint', async () => {
      const log = new FakeLog();
      const load = jest.fn(async (): Promise<void> => undefined);
      const view = follower(log, () => undefined);
      await view.loadThenFollow(readStore([4n, 4n]), 'checkpoint', load);
      expect(load).toHaveBeenCalledTimes(1);
      expect(log.subscribed[0].after).toBe(4n);
      expect(view.position).toBe(4n);
      await view.stop();
    });

    it('without a checkpoint follows from the very start without loading', async () => {
      const log = new FakeLog();
      const load = jest.fn(async (): Promise<void> => undefined);
      const view = follower(log, () => undefined);
      await view.loadThenFollow(readStore([undefined]), 'checkpoint', load);
      expect(load).not.toHaveBeenCalled();
      expect(log.subscribed[0].after).toBeUndefined();
      await view.stop();
    });

    it('replays everything when the checkpoint went back while loading (a rebuild)', async () => {
      const log = new FakeLog();
      const view = follower(log, () => undefined);
      await view.loadThenFollow(readStore([4n, 1n]), 'checkpoint', async () => undefined);
      expect(log.subscribed[0].after).toBeUndefined();
      await view.stop();
    });
  });
});
