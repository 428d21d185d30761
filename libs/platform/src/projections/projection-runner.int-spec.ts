import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EmbeddedEventStore } from '../event-store/index.js';
import type { EventStore } from '../event-store/event-store.port.js';
import { EventRegistry } from '../events/event-registry.js';
import { TimeoutError } from '../errors.js';
import { JsonLogger } from '../logging/json-logger.js';
import { EmbeddedReadStore } from '../read-store/index.js';
import type { Doc, ReadStore } from '../read-store/read-store.port.js';
import { checkpointName, collectionName, type Projection } from './projection.js';
import { ProjectionRunner } from './projection-runner.js';
import { rebuildProjection } from './rebuild.js';

interface TallyDoc extends Doc {
  total: number;
  count: number;
}

/** A read model of running totals per stream: wrong if an event is applied twice or skipped. */
const tally: Projection<TallyDoc> = {
  name: 'tally',
  version: 1,
  streamPrefixes: ['tally-'],
  handles: ['Added', 'Reset'],
  indexes: [{ name: 'by_total', fields: ['total'] }],
  async apply(event, collection) {
    await collection.apply(event.streamName, event.position, (current) => {
      if (event.type === 'Reset') return null;
      const amount = Number(event.data.amount);
      return { id: event.streamName, total: (current?.total ?? 0) + amount, count: (current?.count ?? 0) + 1 };
    });
  },
};

const registry = () => new EventRegistry().register({ type: 'Added', version: 1 }, { type: 'Reset', version: 1 }, { type: 'Other', version: 1 });
const silent = new JsonLogger('silent');

describe('projection runner on the embedded adapters', () => {
  let dir: string;
  let events: EventStore;
  let readStore: ReadStore;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'projections-'));
    events = await EmbeddedEventStore.open(path.join(dir, 'events'));
    readStore = await EmbeddedReadStore.open(path.join(dir, 'read-models'));
  });
  afterEach(async () => {
    await readStore.close();
    await events.close();
  });

  const add = (stream: string, amount: number) => events.append(stream, [{ type: 'Added', data: { amount } }], 'any');

  it('applies history and live events, and waitFor resolves once the read model has the position', async () => {
    await add('tally-a', 1);
    await add('other-x', 100);
    const runner = new ProjectionRunner(events, readStore, registry(), [tally as unknown as Projection], silent);
    await runner.start();
    const { position } = await add('tally-a', 2);
    await runner.waitFor('tally', position, 2000);
    const collection = await readStore.collection<TallyDoc>(collectionName(tally));
    expect(await collection.get('tally-a')).toEqual({ id: 'tally-a', total: 3, count: 2 });
    await runner.stop();
    expect(await readStore.getCheckpoint(checkpointName(tally))).toBe(position);
  });

  it('times out with a typed error when the position never comes', async () => {
    const runner = new ProjectionRunner(events, readStore, registry(), [tally as unknown as Projection], silent);
    await runner.start();
    await expect(runner.waitFor('tally', 999n, 50)).rejects.toBeInstanceOf(TimeoutError);
    await runner.stop();
  });

  it('resumes from its checkpoint after a restart without applying anything twice', async () => {
    const first = new ProjectionRunner(events, readStore, registry(), [tally as unknown as Projection], silent);
    await first.start();
    const { position } = await add('tally-b', 5);
    await first.waitFor('tally', position, 2000);
    await first.stop();

    await add('tally-b', 7);
    const second = new ProjectionRunner(events, readStore, registry(), [tally as unknown as Projection], silent);
    await second.start();
    const last = await add('tally-b', 11);
    await second.waitFor('tally', last.position, 2000);
    await second.stop();
    const collection = await readStore.collection<TallyDoc>(collectionName(tally));
    expect(await collection.get('tally-b')).toEqual({ id: 'tally-b', total: 23, count: 3 });
  });

  it('survives a lost checkpoint: replayed events are skipped by the documents', async () => {
    const runner = new ProjectionRunner(events, readStore, registry(), [tally as unknown as Projection], silent);
    await runner.start();
    const { position } = await add('tally-c', 4);
    await runner.waitFor('tally', position, 2000);
    await runner.stop();
    await readStore.deleteCheckpoint(checkpointName(tally));

    const replay = new ProjectionRunner(events, readStore, registry(), [tally as unknown as Projection], silent);
    await replay.start();
    await replay.waitFor('tally', position, 2000);
    await replay.stop();
    const collection = await readStore.collection<TallyDoc>(collectionName(tally));
    expect(await collection.get('tally-c')).toEqual({ id: 'tally-c', total: 4, count: 1 });
  });

  it('rebuilds from the log to the same read model the live runner built', async () => {
    const runner = new ProjectionRunner(events, readStore, registry(), [tally as unknown as Projection], silent);
    await runner.start();
    let last = 0n;
    for (let index = 0; index < 60; index++) {
      const stream = `tally-${index % 7}`;
      last = index % 13 === 12 ? (await events.append(stream, [{ type: 'Reset', data: {} }], 'any')).position : (await add(stream, index)).position;
    }
    await runner.waitFor('tally', last, 5000);
    await runner.stop();
    const collection = await readStore.collection<TallyDoc>(collectionName(tally));
    const live = await collection.find({ index: 'by_total', limit: 1000 });

    const progress: bigint[] = [];
    const result = await rebuildProjection(tally as unknown as Projection, events, readStore, registry(), (step) => progress.push(step.position));
    const rebuilt = await collection.find({ index: 'by_total', limit: 1000 });
    expect(rebuilt.items).toEqual(live.items);
    expect(live.items.length).toBeGreaterThan(0);
    expect(result.position).toBe(last);
    expect(progress[progress.length - 1]).toBe(last);
  });

  it('refuses to start a projection that handles an unregistered event type', () => {
    const broken = { ...tally, handles: ['Added', 'Typo'] } as unknown as Projection;
    expect(() => new ProjectionRunner(events, readStore, registry(), [broken], silent)).toThrow(/Typo/);
  });
});

describe('checkpointPollingWaiter (api process without projections)', () => {
  it('resolves once the checkpoint written by another process reaches the position, and times out otherwise', async () => {
    const { checkpointPollingWaiter } = await import('./projection-waiter.js');
    const dir = mkdtempSync(path.join(tmpdir(), 'waiter-'));
    const readStore = await EmbeddedReadStore.open(dir);
    try {
      const waiter = checkpointPollingWaiter(readStore, tally as unknown as Projection, 5);
      const waiting = waiter.waitFor(7n, 2000);
      await readStore.setCheckpoint(checkpointName(tally), 6n);
      await new Promise((resolve) => setTimeout(resolve, 20));
      await readStore.setCheckpoint(checkpointName(tally), 7n);
      await expect(waiting).resolves.toBeUndefined();
      await expect(waiter.waitFor(8n, 30)).rejects.toBeInstanceOf(TimeoutError);
    } finally {
      await readStore.close();
    }
  });
});
