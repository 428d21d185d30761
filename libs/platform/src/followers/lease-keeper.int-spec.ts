import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { EmbeddedEventStore } from '../event-store/index.js';
import type { EventStore } from '../event-store/event-store.port.js';
import { EventRegistry } from '../events/event-registry.js';
import { DirectoryLease, RedisLease, type Lease } from '../locking/lease.js';
import { EmbeddedReadStore } from '../read-store/index.js';
import type { ReadStore } from '../read-store/read-store.port.js';
import { Followers } from './followers.js';
import { LeaseKeeper } from './lease-keeper.js';
import { LogFollower } from './log-follower.js';

async function until(condition: () => boolean, timeoutMs = 8000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(condition()).toBe(true);
}

/** A lease a test hands over by hand. */
class HandLease implements Lease {
  holder: HandLease | undefined;
  constructor(private readonly shared: { holder?: HandLease }) {}
  async tryHold(): Promise<boolean> {
    this.shared.holder ??= this;
    return this.held();
  }
  held(): boolean {
    return this.shared.holder === this;
  }
  async release(): Promise<void> {
    if (this.held()) this.shared.holder = undefined;
  }
}

describe('the followers lease: one worker runs the checkpointed followers, another takes over from the checkpoint', () => {
  let events: EventStore;
  let readStore: ReadStore;
  let dir: string;
  const registry = new EventRegistry().register({ type: 'Happened', version: 1 });
  const stops: Array<() => Promise<void>> = [];

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'lease-'));
    events = await EmbeddedEventStore.open(path.join(dir, 'events'));
    readStore = await EmbeddedReadStore.open(path.join(dir, 'read-models'));
  });
  afterEach(async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
    await readStore.close();
    await events.close();
  });

  const put = async (value: number) => (await events.append('a-1', [{ type: 'Happened', data: { value }, metadata: { schema_version: 1 } }], 'any')).position;

  /** One worker: its keeper, and a checkpointed follower and a view added to its Followers. */
  async function worker(lease: Lease, seen: number[], viewSeen: number[]) {
    const keeper = new LeaseKeeper(lease, 20);
    await keeper.start();
    const followers = new Followers(keeper);
    const follower = followers.add(
      new LogFollower(events, registry, readStore, { name: 'projection', streamPrefixes: ['a-'], start: { from: 'checkpoint', key: 'p' }, sink: { handle: (event) => void seen.push(Number(event.data.value)) }, checkpointEveryMs: 10 }),
    );
    const view = followers.add(new LogFollower(events, registry, undefined, { name: 'view', streamPrefixes: ['a-'], start: { from: 'beginning' }, sink: { handle: (event) => void viewSeen.push(Number(event.data.value)) } }));
    await follower.start();
    await view.start();
    const stop = async () => {
      await follower.stop();
      await view.stop();
      await keeper.stop();
    };
    stops.push(stop);
    return { keeper, followers, stop };
  }

  it('runs the checkpointed follower in the holder only, views in both; after the holder goes the other resumes from the checkpoint without a gap', async () => {
    const shared: { holder?: HandLease } = {};
    const first = { seen: [] as number[], view: [] as number[] };
    const second = { seen: [] as number[], view: [] as number[] };
    const one = await worker(new HandLease(shared), first.seen, first.view);
    const other = await worker(new HandLease(shared), second.seen, second.view);
    // The lag metric reads the holder's projection only; the standby's views in both.
    expect(one.followers.positions().map((follower) => follower.name)).toEqual(['projection', 'view']);
    expect(other.followers.positions().map((follower) => follower.name)).toEqual(['view']);
    for (let value = 1; value <= 5; value++) await put(value);
    await until(() => first.seen.length === 5 && first.view.length === 5 && second.view.length === 5);
    // The standby never handled one event.
    expect(second.seen).toEqual([]);
    const checkpoint = async () => readStore.getCheckpoint('p');
    const fifth = await put(6).then(async (position) => position - 1n);
    await until(() => first.seen.length === 6);
    let saved: bigint | undefined;
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && ((saved = await checkpoint()) ?? 0n) < fifth + 1n) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(saved).toBe(fifth + 1n);

    // The holder shuts down (releasing the lease); the standby takes over and goes on from the checkpoint.
    await one.stop();
    for (let value = 7; value <= 9; value++) await put(value);
    await until(() => second.seen.length === 3);
    expect(second.seen).toEqual([7, 8, 9]);
    expect(first.seen).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('fences a holder that lost its lease: it handles and checkpoints nothing more, and starts again from the checkpoint when it holds it again', async () => {
    const shared: { holder?: HandLease } = {};
    const lease = new HandLease(shared);
    const seen: number[] = [];
    await worker(lease, seen, []);
    await put(1);
    await until(() => seen.length === 1);
    let saved: bigint | undefined;
    for (const deadline = Date.now() + 5000; Date.now() < deadline && (saved = await readStore.getCheckpoint('p')) === undefined; ) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(saved).toBe(1n);
    // Another process took it (the term ran out): nothing more is handled or written here.
    const other = new HandLease(shared);
    shared.holder = other;
    await put(2);
    await put(3);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toEqual([1]);
    expect(await readStore.getCheckpoint('p')).toBe(1n);
    // Back: from the checkpoint, so 2 and 3 are handled once each.
    shared.holder = lease;
    await until(() => seen.length === 3);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('a DirectoryLease is held by one opener at a time and free again once released', async () => {
    const a = new DirectoryLease(dir, 'followers');
    const b = new DirectoryLease(dir, 'followers');
    expect(await a.tryHold()).toBe(true);
    expect(await b.tryHold()).toBe(false);
    expect(b.held()).toBe(false);
    await a.release();
    expect(await b.tryHold()).toBe(true);
    await b.release();
  });

  const redisUrl = process.env.REDIS_URL;
  (redisUrl ? it : it.skip)('a RedisLease is held by one process at a time, renewed by its holder, and free at once on release or after its term', async () => {
    const name = `test-${process.pid}-${Date.now()}`;
    const a = RedisLease.open(redisUrl!, name, 600);
    const b = RedisLease.open(redisUrl!, name, 600);
    try {
      expect(await a.tryHold()).toBe(true);
      expect(await b.tryHold()).toBe(false);
      // Renewed past its first term.
      for (let i = 0; i < 5; i++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(await a.tryHold()).toBe(true);
        expect(await b.tryHold()).toBe(false);
      }
      await a.release();
      expect(await b.tryHold()).toBe(true);
      // b stops renewing (it died): a third takes it once the key expired, and b's fence has closed by then.
      const c = RedisLease.open(redisUrl!, name, 600);
      expect(await c.tryHold()).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(b.held()).toBe(false);
      expect(await c.tryHold()).toBe(true);
      await c.release();
    } finally {
      await b.release();
      const redis = new Redis(redisUrl!);
      await redis.del(`location-api:lease:${name}`);
      await redis.quit();
    }
  });
});
