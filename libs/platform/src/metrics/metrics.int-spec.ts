import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedEventStore } from '../event-store/index.js';
import { EventRegistry } from '../events/event-registry.js';
import { Followers } from '../followers/followers.js';
import { LogFollower } from '../followers/log-follower.js';
import { EmbeddedJobQueue } from '../queue/embedded/embedded-job-queue.js';
import { EmbeddedReadStore } from '../read-store/index.js';
import { metricsRegistry, watchFollowers, watchQueueDepth, watchTransactionQueue } from './metrics.js';

/** The `queue_depth{queue}` gauge (ADR 0028), read at scrape time from the embedded queue. */
describe('queue_depth', () => {
  const depthLines = async () => (await metricsRegistry.getSingleMetricAsString('queue_depth')).split('\n').filter((line) => line.startsWith('queue_depth{'));

  it('reports the waiting, delayed and running jobs of each declared queue, 0 for an idle one, nothing once the queue is closed', async () => {
    const queue = await EmbeddedJobQueue.open(mkdtempSync(path.join(tmpdir(), 'queue-depth-')));
    watchQueueDepth(queue, ['mail', 'webhooks', 'mail']);
    await queue.add('mail', 'send', { n: 1 });
    await queue.add('mail', 'send', { n: 2 }, { delayMs: 60_000 });
    expect(await depthLines()).toEqual(['queue_depth{queue="mail"} 2', 'queue_depth{queue="webhooks"} 0']);

    let release!: () => void;
    const running = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const begun = new Promise<void>((resolve) => (started = resolve));
    const worker = queue.process('mail', async () => {
      started();
      await running;
    });
    await begun;
    // One running, one delayed: still two not finished.
    expect(await depthLines()).toContain('queue_depth{queue="mail"} 2');
    release();
    await worker.close();
    expect(await depthLines()).toContain('queue_depth{queue="mail"} 1');

    await queue.close();
    expect(await depthLines()).toEqual([]);
  });
});

/** `log_follower_lag_positions{follower}`: against the newest event of the streams each follower follows (issue 31). */
/** The `lmdb_transactions_waiting` gauge (ADR 0049): the embedded stores' write callbacks waiting for a batch. */
describe('lmdb_transactions_waiting', () => {
  const waiting = async () => Number(/^lmdb_transactions_waiting (\d+)$/m.exec(await metricsRegistry.getSingleMetricAsString('lmdb_transactions_waiting'))?.[1]);

  it("sums the writes both embedded stores have queued, and is 0 once they are committed", async () => {
    const events = await EmbeddedEventStore.open(mkdtempSync(path.join(tmpdir(), 'txn-events-')));
    const readStore = await EmbeddedReadStore.open(mkdtempSync(path.join(tmpdir(), 'txn-reads-')));
    try {
      watchTransactionQueue(events);
      watchTransactionQueue(readStore);
      const things = await readStore.collection('things');
      const before = await waiting();
      // Queued in this turn: none of them has run yet.
      const writes = [
        ...Array.from({ length: 3 }, (_, i) => events.append(`thing-${i}`, [{ type: 'ThingHappened', data: { i } }], 'any')),
        ...Array.from({ length: 4 }, (_, i) => things.apply(`t${i}`, BigInt(i + 1), () => ({ id: `t${i}` }))),
      ];
      expect(events.transactionsWaiting).toBe(3);
      expect(readStore.transactionsWaiting).toBe(4);
      expect(await waiting()).toBe(before + 7);
      await Promise.all(writes);
      expect(await waiting()).toBe(0);
    } finally {
      await events.close();
      await readStore.close();
    }
  });
});

describe('log_follower_lag_positions', () => {
  const lagOf = async (name: string) =>
    (await metricsRegistry.getSingleMetricAsString('log_follower_lag_positions')).split('\n').find((line) => line.startsWith(`log_follower_lag_positions{follower="${name}"}`));

  it('is 0 for a follower that handled all of its streams, however much else the log holds; what it has not handled otherwise', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'follower-lag-'));
    const events = await EmbeddedEventStore.open(path.join(dir, 'events'));
    const checkpoints = await EmbeddedReadStore.open(path.join(dir, 'read-models'));
    const registry = new EventRegistry().register({ type: 'Happened', version: 1 });
    const append = (stream: string) => events.append(stream, [{ type: 'Happened', data: {}, metadata: { schema_version: 1 } }], 'any');
    try {
      await append('lagkey-1');
      await append('lagkey-acct_1:2');
      for (let i = 0; i < 40; i++) await append(`lagaccess-${i % 3}`);
      const followers = new Followers();
      const handled: string[] = [];
      // Checkpointed, as projections are: the subscription hands them their own streams' events only.
      const follow = (name: string, streamPrefixes: string[]) =>
        followers.add(new LogFollower(events, registry, checkpoints, { name, streamPrefixes, start: { from: 'checkpoint', key: name }, sink: { handle: (event) => void handled.push(event.streamName) } }));
      const idle = follow('lag idle', ['lagkey-']);
      const narrow = follow('lag narrow', ['lagkey-acct_1:']);
      follow('lag behind', ['lagaccess-']);
      await idle.start();
      await narrow.start();
      while (handled.length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
      watchFollowers(followers, events);
      // Measured against the head, they were 40 short (and 198,000 in the run).
      expect(await lagOf('lag idle')).toBe('log_follower_lag_positions{follower="lag idle"} 0');
      expect(await lagOf('lag narrow')).toBe('log_follower_lag_positions{follower="lag narrow"} 0');
      // Never started: everything of its streams is ahead of it.
      expect(await lagOf('lag behind')).toBe('log_follower_lag_positions{follower="lag behind"} 42');
      await idle.stop();
      await append('lagkey-3');
      expect(await lagOf('lag idle')).toBe('log_follower_lag_positions{follower="lag idle"} 41');
      expect(await lagOf('lag narrow')).toBe('log_follower_lag_positions{follower="lag narrow"} 0');
      await narrow.stop();
    } finally {
      await checkpoints.close();
      await events.close();
    }
  });
});
