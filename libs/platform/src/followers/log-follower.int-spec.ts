import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import { EmbeddedEventStore } from '../event-store/index.js';
import type { EventStore, RecordedEvent } from '../event-store/event-store.port.js';
import { EventRegistry } from '../events/event-registry.js';
import { TimeoutError } from '../errors.js';
import { EmbeddedReadStore } from '../read-store/index.js';
import type { ReadStore } from '../read-store/read-store.port.js';
import { LogFollower, type FollowerSink, type FollowerSpec } from './log-follower.js';
import { Followers } from './followers.js';

async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
}

describe('LogFollower on the embedded adapters', () => {
  let events: EventStore;
  let readStore: ReadStore;
  let registry: EventRegistry;
  const followers: LogFollower[] = [];

  beforeEach(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'follower-'));
    events = await EmbeddedEventStore.open(path.join(dir, 'events'));
    readStore = await EmbeddedReadStore.open(path.join(dir, 'read-models'));
    // Version 2 renamed `n` to `value`.
    registry = new EventRegistry().register({ type: 'Happened', version: 2, upcast: (data) => ({ value: data.n }) }, { type: 'Other', version: 1 });
  });
  afterEach(async () => {
    for (const follower of followers.splice(0)) await follower.stop();
    await readStore.close();
    await events.close();
  });

  const put = async (stream: string, value: number, type = 'Happened') => (await events.append(stream, [{ type, data: { value }, metadata: { schema_version: 2 } }], 'any')).position;
  const follow = (spec: Partial<FollowerSpec> & Pick<FollowerSpec, 'sink'>, logger?: { error: jest.Mock; warn: jest.Mock }) => {
    const follower = new LogFollower(events, registry, readStore, { name: 'test follower', streamPrefixes: ['a-', 'b-'], start: { from: 'beginning' }, ...spec }, logger as never, { restartMinMs: 5, restartMaxMs: 20, stuckAfterFailures: 3 });
    followers.push(follower);
    return follower;
  };
  const values = (seen: RecordedEvent[]) => seen.map((event) => `${event.streamName}=${String(event.data.value)}`);

  it('from the beginning: applies the followed streams already in the log before start resolves, upcast, then live ones', async () => {
    await put('a-1', 1);
    await put('other-1', 2);
    await events.append('b-1', [{ type: 'Happened', data: { n: 3 }, metadata: { schema_version: 1 } }], 'any');
    const seen: RecordedEvent[] = [];
    const follower = follow({ sink: { handle: (event) => void seen.push(event) } });
    await follower.start();
    expect(values(seen)).toEqual(['a-1=1', 'b-1=3']);
    expect(follower.position).toBe(3n);
    const live = await put('a-2', 4);
    await follower.waitFor(live, 2000);
    expect(values(seen)).toEqual(['a-1=1', 'b-1=3', 'a-2=4']);
  });

  it('from the beginning: reads only its own streams from the store, not the whole log (issue 47: a restart parsed it once per view)', async () => {
    for (let i = 0; i < 6; i++) {
      await put(`a-${i}`, i);
      await events.append(`other-${i}`, Array.from({ length: 500 }, () => ({ type: 'Other', data: {} })), 'any');
    }
    const read = jest.spyOn(events, 'readAll');
    const seen: RecordedEvent[] = [];
    const follower = follow({ sink: { handle: (event) => void seen.push(event) } });
    await follower.start();
    expect(values(seen)).toEqual(['a-0=0', 'a-1=1', 'a-2=2', 'a-3=3', 'a-4=4', 'a-5=5']);
    const returned = await Promise.all(read.mock.results.map((result) => result.value as Promise<RecordedEvent[]>));
    expect(returned.flat().map((event) => event.streamName.split('-')[0])).toEqual(Array(6).fill('a'));
    expect(read.mock.calls.every(([options]) => options?.streamPrefixes?.join() === 'a-,b-')).toBe(true);
    read.mockRestore();
  });

  it('pipelined: hands on events without waiting for each write, but moves its position (and waiters) only as the writes complete, in order', async () => {
    const releases: Array<() => void> = [];
    const started: string[] = [];
    const follower = follow({
      start: { from: 'checkpoint', key: 'pipelined' },
      pipelined: true,
      sink: {
        handle: (event) => {
          started.push(`${event.streamName}=${String(event.data.value)}`);
          return new Promise<void>((resolve) => releases.push(resolve));
        },
      },
    });
    await follower.start();
    await put('a-1', 1);
    await put('other-1', 2);
    const last = await put('b-1', 3);
    let caughtUp = false;
    void follower.waitFor(last, 5000).then(() => (caughtUp = true));
    // Both writes started before either completed.
    await until(() => started.length === 2);
    expect(follower.position).toBe(0n);
    releases[1]();
    await new Promise((resolve) => setTimeout(resolve, 20));
    // The second write is done, the first is not: nothing moves past the first.
    expect(follower.position).toBe(0n);
    expect(caughtUp).toBe(false);
    releases[0]();
    await until(() => caughtUp);
    expect(follower.position).toBe(last);
  });

  it('pipelined: a failed write restarts the follower from its last durable position, and the events are handed on again', async () => {
    let failOnce = true;
    const seen: string[] = [];
    const logger = { error: jest.fn(), warn: jest.fn() };
    const follower = follow(
      {
        start: { from: 'checkpoint', key: 'pipelined-failing' },
        pipelined: true,
        sink: {
          handle: async (event) => {
            const value = String(event.data.value);
            if (value === '2' && failOnce) {
              failOnce = false;
              throw new Error('write failed');
            }
            seen.push(value);
          },
        },
      },
      logger,
    );
    await follower.start();
    await put('a-1', 1);
    await put('a-1', 2);
    const last = await put('a-1', 3);
    await follower.waitFor(last, 5000);
    expect(seen).toContain('2');
    expect(seen.indexOf('2')).toBeLessThan(seen.lastIndexOf('3'));
    expect(logger.error).toHaveBeenCalled();
  });

  it('hands on only the event types it handles, opened (codec) before upcasting', async () => {
    await events.append('a-1', [{ type: 'Happened', data: { sealed: JSON.stringify({ n: 7 }) }, metadata: { schema_version: 1 } }], 'any');
    await put('a-1', 8, 'Other');
    const seen: RecordedEvent[] = [];
    const follower = follow({
      handles: ['Happened'],
      open: async (event) => ({ ...event, data: JSON.parse(String(event.data.sealed)) as Record<string, unknown> }),
      sink: { handle: (event) => void seen.push(event) },
    });
    await follower.start();
    expect(seen.map((event) => event.data)).toEqual([{ value: 7 }]);
    expect(follower.position).toBe(2n);
  });

  it('stops from inside its own sink: awaited from the sink\'s synchronous part, not awaited after an await (Subscription.stop)', async () => {
    const seenAtOnce: RecordedEvent[] = [];
    const atOnce: LogFollower = follow({
      streamPrefixes: ['a-'],
      sink: {
        handle: async (event) => {
          seenAtOnce.push(event);
          await atOnce.stop();
        },
      },
    });
    const seenLater: RecordedEvent[] = [];
    const later: LogFollower = follow({
      streamPrefixes: ['b-'],
      // With `open`, the sink is reached after an await of the delivery.
      open: async (event) => event,
      sink: {
        handle: async (event) => {
          await new Promise<void>((resolve) => setImmediate(resolve));
          seenLater.push(event);
          void later.stop();
        },
      },
    });
    await atOnce.start();
    await later.start();
    await put('a-1', 1);
    await put('a-1', 2);
    await put('b-1', 3);
    await put('b-1', 4);
    await until(() => seenAtOnce.length > 0 && seenLater.length > 0);
    // Time for a second delivery, had either gone on.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(values(seenAtOnce)).toEqual(['a-1=1']);
    expect(values(seenLater)).toEqual(['b-1=3']);
  });

  it('refuses to handle an unregistered event type', () => {
    expect(() => follow({ handles: ['Typo'], sink: { handle: () => undefined } })).toThrow(/Typo/);
  });

  it('waitFor times out with a TimeoutError naming the follower', async () => {
    const follower = follow({ sink: { handle: () => undefined } });
    await follower.start();
    await expect(follower.waitFor(99n, 10)).rejects.toEqual(new TimeoutError('test follower did not reach position 99 within 10 ms'));
  });

  it('checkpointed: resumes after its checkpoint without handling anything twice', async () => {
    const seen: RecordedEvent[] = [];
    const spec = { start: { from: 'checkpoint' as const, key: 'test:checkpoint' }, checkpointEveryMs: 5, sink: { handle: (event: RecordedEvent) => void seen.push(event) } };
    const first = follow(spec);
    await first.start();
    const one = await put('a-1', 1);
    await first.waitFor(one, 2000);
    await first.stop();
    expect(await readStore.getCheckpoint('test:checkpoint')).toBe(one);
    await put('a-1', 2);
    const second = follow(spec);
    await second.start();
    const three = await put('b-1', 3);
    await second.waitFor(three, 2000);
    expect(values(seen)).toEqual(['a-1=1', 'a-1=2', 'b-1=3']);
    await until(() => second.status().durable === String(three));
  });

  it('restarts with backoff after the sink fails, from the last handled event, logs it, and reports stuck while it keeps failing', async () => {
    const logger = { error: jest.fn(), warn: jest.fn() };
    let failing = true;
    const seen: number[] = [];
    const follower = follow(
      {
        start: { from: 'checkpoint', key: 'test:restart' },
        sink: {
          handle: (event) => {
            if (event.data.value === 2 && failing) throw new Error('transient');
            seen.push(Number(event.data.value));
          },
        },
      },
      logger,
    );
    const followersOfProcess = new Followers();
    followersOfProcess.add(follower);
    await follower.start();
    await put('a-1', 1);
    await put('a-1', 2);
    await until(() => follower.status().stuck);
    await expect(followersOfProcess.healthCheck().ping()).rejects.toThrow(/test follower \(transient\)/);
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ follower: 'test follower', err: 'transient' }));
    failing = false;
    const last = await put('a-1', 3);
    await follower.waitFor(last, 5000);
    expect(seen).toEqual([1, 2, 3]);
    expect(follower.status()).toMatchObject({ failures: 0, stuck: false });
    await expect(followersOfProcess.healthCheck().ping()).resolves.toBeUndefined();
  });

  it('a buffering sink: checkpoints only what it flushed, and after a failed flush resumes from there with its buffer reset', async () => {
    const published: number[] = [];
    let buffer: number[] = [];
    let failFlush = 1;
    const sink: FollowerSink = {
      handle: (event) => void buffer.push(Number(event.data.value)),
      flush: async () => {
        if (buffer.length > 0 && failFlush-- > 0) throw new Error('broker down');
        published.push(...buffer);
        buffer = [];
      },
      reset: () => {
        buffer = [];
      },
    };
    const follower = follow({ start: { from: 'checkpoint', key: 'test:relay' }, checkpointEveryMs: 5, checkpointEveryEvents: 2, sink });
    await follower.start();
    let last = 0n;
    for (let value = 1; value <= 5; value++) last = await put('a-1', value);
    await until(() => follower.status().durable === String(last));
    expect(published).toEqual([1, 2, 3, 4, 5]);
    expect(await readStore.getCheckpoint('test:relay')).toBe(last);
  });

  it('load: fills the view from a read model, then follows after its checkpoint; without a checkpoint replays everything', async () => {
    await put('a-1', 1);
    const two = await put('a-1', 2);
    await readStore.setCheckpoint('view:checkpoint', two);
    const seen: number[] = [];
    const loaded = jest.fn(async () => undefined);
    const follower = follow({ start: { from: 'load', key: 'view:checkpoint', load: loaded }, sink: { handle: (event) => void seen.push(Number(event.data.value)) } });
    await follower.start();
    const three = await put('a-1', 3);
    await follower.waitFor(three, 2000);
    expect(loaded).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([3]);

    const fresh: number[] = [];
    const other = follow({ name: 'second', start: { from: 'load', key: 'missing:checkpoint', load: loaded }, sink: { handle: (event) => void fresh.push(Number(event.data.value)) } });
    await other.start();
    await other.waitFor(three, 2000);
    expect(fresh).toEqual([1, 2, 3]);
    expect(loaded).toHaveBeenCalledTimes(1);
  });

  it('stop ends following: later events are not handled', async () => {
    const seen: number[] = [];
    const follower = follow({ sink: { handle: (event) => void seen.push(Number(event.data.value)) } });
    await follower.start();
    await follower.waitFor(await put('a-1', 1), 2000);
    await follower.stop();
    await put('a-1', 2);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(seen).toEqual([1]);
  });
});
