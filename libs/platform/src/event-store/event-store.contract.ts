/**
 * The one contract every EventStore adapter passes (style guide: "one
 * contract suite per port, run against every adapter of that port").
 *
 * It must also hold against a shared EventStoreDB server that other runs and
 * other tests write to, so every test writes to its own randomly named streams
 * and only ever asserts about those: never about "the whole log".
 *
 * Jest globals are imported explicitly so this file type-checks in the build
 * config too (which has no jest types), although only *.int-spec.ts files use it.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { DomainError, InvalidParamError } from '../errors.js';
import { ConcurrencyError, StreamNotFoundError } from './errors.js';
import type { EventStore, NewEvent, RecordedEvent, SubscribeOptions, Subscription } from './event-store.port.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Bound for waiting on a subscription; a wait that runs out fails the test with what arrived so far. */
const WAIT_MS = 10_000;

export function describeEventStoreContract(
  name: string,
  open: () => Promise<EventStore>,
  cleanup?: () => Promise<void>,
): void {
  describe(`EventStore contract: ${name}`, () => {
    let store: EventStore;
    /** Per-run token: stream names and prefixes never collide with earlier runs on a shared server. */
    const run = randomUUID().slice(0, 8);
    const stream = (category: string) => `ct_${run}_${category}-${randomUUID().slice(0, 8)}`;

    beforeAll(async () => {
      store = await open();
    });

    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });

    describe('append and readStream', () => {
      it('round-trips events with ids, types, data, metadata, revisions from 0 and increasing positions', async () => {
        const s = stream('roundtrip');
        const givenId = randomUUID();
        const before = Date.now();
        const result = await store.append(
          s,
          [
            { id: givenId, type: 'ThingCreated', data: { thing_id: 't1', tags: ['a', 'b'], nested: { n: 1 } } },
            { type: 'ThingRenamed', data: { name: 'Ngong' }, metadata: { causation_id: 'c-1' } },
          ],
          'no_stream',
        );

        const events = await store.readStream(s);
        expect(events.map((e) => [e.streamName, e.type, e.revision])).toEqual([
          [s, 'ThingCreated', 0n],
          [s, 'ThingRenamed', 1n],
        ]);
        expect(events[0].id).toBe(givenId);
        expect(events[1].id).toMatch(UUID);
        expect(events[1].id).not.toBe(givenId);
        expect(events[0].data).toEqual({ thing_id: 't1', tags: ['a', 'b'], nested: { n: 1 } });
        expect(events[0].metadata).toEqual({});
        expect(events[1].metadata).toEqual({ causation_id: 'c-1' });
        expect(events[1].position).toBeGreaterThan(events[0].position);
        expect(result).toEqual({ nextExpectedRevision: 1n, position: events[1].position });
        for (const e of events) {
          expect(e.createdAt).toBeInstanceOf(Date);
          // Generous window: the server's clock may differ a little; this catches unset or epoch dates.
          expect(Math.abs(e.createdAt.getTime() - before)).toBeLessThan(5 * 60_000);
        }
      });

      it('continues the revisions of an existing stream', async () => {
        const s = stream('continue');
        await store.append(s, [event('A'), event('B')], 'no_stream');
        const result = await store.append(s, [event('C')], 1n);
        expect(result.nextExpectedRevision).toBe(2n);
        expect((await store.readStream(s)).map((e) => e.type)).toEqual(['A', 'B', 'C']);
      });

      it('rejects an empty append', async () => {
        await expect(store.append(stream('empty'), [], 'any')).rejects.toBeInstanceOf(InvalidParamError);
      });

      it('throws StreamNotFoundError for a stream that was never written', async () => {
        const s = stream('missing');
        const error = await failure(store.readStream(s));
        expect(error).toBeInstanceOf(StreamNotFoundError);
        expect(error).toBeInstanceOf(DomainError);
        expect(error).toMatchObject({ stream: s, code: 'STREAM_NOT_FOUND' });
      });
    });

    describe('expected revision', () => {
      it('no_stream: creates a new stream, conflicts with an existing one', async () => {
        const s = stream('nostream');
        await store.append(s, [event('A')], 'no_stream');
        const error = await expectConflict(store.append(s, [event('B')], 'no_stream'), { stream: s, expected: 'no_stream', actual: '0' });
        expect(error).toBeInstanceOf(DomainError);
        expect(error.code).toBe('CONCURRENCY_CONFLICT');
        expect(await types(store, s)).toEqual(['A']);
      });

      it('stream_exists: conflicts with a missing stream, appends to an existing one', async () => {
        const s = stream('exists');
        await expectConflict(store.append(s, [event('A')], 'stream_exists'), { stream: s, expected: 'stream_exists', actual: 'no_stream' });
        await expect(store.readStream(s)).rejects.toBeInstanceOf(StreamNotFoundError);
        await store.append(s, [event('A')], 'any');
        expect((await store.append(s, [event('B')], 'stream_exists')).nextExpectedRevision).toBe(1n);
      });

      it('exact revision: appends when current, conflicts when stale or the stream is missing', async () => {
        const s = stream('exact');
        await expectConflict(store.append(s, [event('A')], 0n), { stream: s, expected: '0', actual: 'no_stream' });
        await store.append(s, [event('A')], 'no_stream');
        await store.append(s, [event('B')], 0n);
        await expectConflict(store.append(s, [event('stale')], 0n), { stream: s, expected: '0', actual: '1' });
        await expectConflict(store.append(s, [event('ahead')], 5n), { stream: s, expected: '5', actual: '1' });
        expect(await types(store, s)).toEqual(['A', 'B']);
      });

      it('any: appends whatever the stream state', async () => {
        const s = stream('any');
        await store.append(s, [event('A')], 'any');
        await store.append(s, [event('B')], 'any');
        expect((await store.readStream(s)).map((e) => e.revision)).toEqual([0n, 1n]);
      });

      it.each([
        ['an exact revision', 0n],
        ['no_stream', 'no_stream'],
      ] as const)('concurrent appends expecting %s: exactly one wins', async (_label, expected) => {
        const s = stream('race');
        if (expected === 0n) await store.append(s, [event('Seed')], 'no_stream');
        const contenders = Array.from({ length: 8 }, (_, i) => store.append(s, [event(`Contender${i}`)], expected));
        const outcomes = await Promise.allSettled(contenders);

        const winners = outcomes.filter((o) => o.status === 'fulfilled');
        const losers = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason as unknown] : []));
        expect(winners).toHaveLength(1);
        expect(losers).toHaveLength(7);
        for (const loser of losers) expect(loser).toBeInstanceOf(ConcurrencyError);
        expect(await store.readStream(s)).toHaveLength(expected === 0n ? 2 : 1);
      });
    });

    describe('readStream options', () => {
      let s: string;
      beforeAll(async () => {
        s = stream('options');
        await store.append(s, ['E0', 'E1', 'E2', 'E3', 'E4'].map(event), 'no_stream');
      });

      const revisions = async (options: Parameters<EventStore['readStream']>[1]) =>
        (await store.readStream(s, options)).map((e) => Number(e.revision));

      it('reads forwards from a revision, with a maximum count', async () => {
        expect(await revisions({})).toEqual([0, 1, 2, 3, 4]);
        expect(await revisions({ fromRevision: 2n })).toEqual([2, 3, 4]);
        expect(await revisions({ maxCount: 2 })).toEqual([0, 1]);
        expect(await revisions({ fromRevision: 1n, maxCount: 2 })).toEqual([1, 2]);
        expect(await revisions({ fromRevision: 9n })).toEqual([]);
      });

      it('reads backwards from the end or from a revision', async () => {
        expect(await revisions({ direction: 'backwards' })).toEqual([4, 3, 2, 1, 0]);
        expect(await revisions({ direction: 'backwards', maxCount: 1 })).toEqual([4]);
        expect(await revisions({ direction: 'backwards', fromRevision: 3n, maxCount: 2 })).toEqual([3, 2]);
      });

      it('answers maxCount 0 with no events for an existing stream, still not-found for a missing one', async () => {
        expect(await revisions({ maxCount: 0 })).toEqual([]);
        await expect(store.readStream(stream('missing'), { maxCount: 0 })).rejects.toBeInstanceOf(StreamNotFoundError);
      });
    });

    describe('streamRevision', () => {
      it('answers the last revision of a live stream, and undefined for a missing or deleted one', async () => {
        const s = stream('revision');
        expect(await store.streamRevision(s)).toBeUndefined();
        await store.append(s, [event('A')], 'no_stream');
        expect(await store.streamRevision(s)).toBe(0n);
        await store.append(s, [event('B'), event('C')], 0n);
        // An acknowledged append is seen at once, as by readStream.
        expect(await store.streamRevision(s)).toBe(2n);
        await store.deleteStream(s);
        expect(await store.streamRevision(s)).toBeUndefined();
      });
    });

    describe('readAll and headPosition', () => {
      it('reads strictly after a position, in position order, honouring maxCount', async () => {
        const s = stream('all');
        await store.append(s, [event('First')], 'no_stream');
        await store.append(s, [event('Second'), event('Third')], 0n);
        const [first] = await store.readStream(s);

        const after = await store.readAll({ after: first.position });
        expect(after.filter((e) => e.streamName === s).map((e) => e.type)).toEqual(['Second', 'Third']);
        expectIncreasingPositions(after);
        for (const e of after) expect(e.position).toBeGreaterThan(first.position);

        const one = await store.readAll({ after: first.position, maxCount: 1 });
        expect(one).toHaveLength(1);
        expect(one[0].position).toBe(after[0].position);
      });

      it('reads from the start without system events', async () => {
        const some = await store.readAll({ maxCount: 5 });
        expect(some.length).toBeGreaterThan(0);
        expect(some.length).toBeLessThanOrEqual(5);
        expectIncreasingPositions(some);
        for (const e of some) {
          expect(e.streamName.startsWith('$')).toBe(false);
          expect(e.type.startsWith('$')).toBe(false);
        }
      });

      it('reads only the streams under the given prefixes, whole categories, narrower ones or undashed, honouring maxCount', async () => {
        const a = stream('rfa');
        const b = stream('rfb');
        const c = stream('rfc');
        const from = await store.headPosition();
        await store.append(a, [event('A1')], 'no_stream');
        await store.append(c, [event('C1')], 'no_stream');
        await store.append(b, [event('B1')], 'no_stream');
        await store.append(a, [event('A2')], 0n);
        await store.append(c, [event('C2')], 0n);
        const categoryOf = (name: string) => name.slice(0, name.indexOf('-') + 1);

        const both = await store.readAll({ after: from, streamPrefixes: [categoryOf(a), categoryOf(b)] });
        expect(both.map((e) => e.type)).toEqual(['A1', 'B1', 'A2']);
        expectIncreasingPositions(both);

        const first = await store.readAll({ after: from, maxCount: 2, streamPrefixes: [categoryOf(a), categoryOf(b)] });
        expect(first.map((e) => e.type)).toEqual(['A1', 'B1']);
        const rest = await store.readAll({ after: first[1].position, maxCount: 2, streamPrefixes: [categoryOf(a), categoryOf(b)] });
        expect(rest.map((e) => e.type)).toEqual(['A2']);

        expect((await store.readAll({ after: from, streamPrefixes: [a] })).map((e) => e.type)).toEqual(['A1', 'A2']);
        expect((await store.readAll({ after: from, streamPrefixes: [categoryOf(c).slice(0, -1)] })).map((e) => e.type)).toEqual(['C1', 'C2']);
        expect(await store.readAll({ after: from, maxCount: 0, streamPrefixes: [a] })).toEqual([]);
        await expect(store.readAll({ streamPrefixes: [] })).rejects.toBeInstanceOf(InvalidParamError);
      });

      it('reports a head position at or past the last append', async () => {
        const before = await store.headPosition();
        const result = await store.append(stream('head'), [event('A')], 'no_stream');
        expect(result.position).toBeGreaterThan(before);
        expect(await store.headPosition()).toBeGreaterThanOrEqual(result.position);
      });
    });

    describe('subscribeToAll', () => {
      it('replays history after the checkpoint, then delivers live events, in order and without duplicates', async () => {
        const s = stream('catchup');
        await store.append(s, [event('H0'), event('H1'), event('H2')], 'no_stream');
        const [h0] = await store.readStream(s, { maxCount: 1 });

        const { received, subscription } = collect(store, { after: h0.position }, s);
        await waitFor(() => received.length >= 2, received);
        await store.append(s, [event('L3')], 2n);
        await store.append(s, [event('L4'), event('Sentinel')], 3n);
        await waitFor(() => received.some((e) => e.type === 'Sentinel'), received);
        await subscription.stop();
        await subscription.done;

        expect(received.map((e) => [e.type, e.revision])).toEqual([
          ['H1', 1n],
          ['H2', 2n],
          ['L3', 3n],
          ['L4', 4n],
          ['Sentinel', 5n],
        ]);
        expectIncreasingPositions(received);
      });

      it('loses and repeats nothing while appends race the catch-up', async () => {
        const s = stream('switch');
        const checkpoint = await store.headPosition();
        await store.append(s, Array.from({ length: 20 }, (_, i) => event(`History${i}`)), 'no_stream');

        // A slow handler keeps the subscription in its history phase while the appends below land.
        const { received, subscription } = collect(store, { after: checkpoint }, s, () => new Promise<void>((r) => setImmediate(r)));
        for (let i = 0; i < 20; i++) await store.append(s, [event(`Live${i}`)], BigInt(19 + i));
        await store.append(s, [event('Sentinel')], 39n);
        await waitFor(() => received.some((e) => e.type === 'Sentinel'), received);
        await subscription.stop();

        expect(received.map((e) => Number(e.revision))).toEqual(Array.from({ length: 41 }, (_, i) => i));
        expectIncreasingPositions(received);
      });

      it('delivers only streams matching streamPrefixes', async () => {
        const prefix = `ct_${run}_pick${randomUUID().slice(0, 6)}`;
        const checkpoint = await store.headPosition();
        await store.append(`${prefix}_keep-1`, [event('Kept1')], 'no_stream');
        await store.append(`${prefix}_drop-1`, [event('Dropped')], 'no_stream');
        await store.append(`${prefix}_keep-2`, [event('Kept2')], 'no_stream');
        await store.append(`${prefix}_keep-1`, [event('Sentinel')], 0n);

        const { received, subscription } = collect(store, { after: checkpoint, streamPrefixes: [`${prefix}_keep`] });
        await waitFor(() => received.some((e) => e.type === 'Sentinel'), received);
        await subscription.stop();

        expect(received.map((e) => [e.streamName, e.type])).toEqual([
          [`${prefix}_keep-1`, 'Kept1'],
          [`${prefix}_keep-2`, 'Kept2'],
          [`${prefix}_keep-1`, 'Sentinel'],
        ]);
      });

      it('rejects done with the error the handler threw, and delivers nothing after it', async () => {
        const s = stream('failing');
        const checkpoint = await store.headPosition();
        await store.append(s, [event('Poison'), event('Next')], 'no_stream');
        const seen: string[] = [];
        const subscription = store.subscribeToAll({ after: checkpoint, streamPrefixes: [s] }, (e) => {
          seen.push(e.type);
          throw new Error(`cannot handle ${e.type}`);
        });
        await expect(subscription.done).rejects.toThrow('cannot handle Poison');
        expect(seen).toEqual(['Poison']);
      });

      it('stops from inside its own handler without deadlock, and delivers nothing after', async () => {
        const s = stream('stopping');
        const checkpoint = await store.headPosition();
        await store.append(s, [event('One'), event('Two'), event('Three')], 'no_stream');
        const seen: string[] = [];
        const subscription: Subscription = store.subscribeToAll({ after: checkpoint, streamPrefixes: [s] }, async (e) => {
          seen.push(e.type);
          await subscription.stop();
        });
        await subscription.done;
        expect(seen).toEqual(['One']);
      });

      it('stops from inside its own handler after an await, when the handler does not await the stop', async () => {
        const s = stream('stopping-later');
        const checkpoint = await store.headPosition();
        await store.append(s, [event('One'), event('Two'), event('Three')], 'no_stream');
        const seen: string[] = [];
        const subscription: Subscription = store.subscribeToAll({ after: checkpoint, streamPrefixes: [s] }, async (e) => {
          await new Promise<void>((resolve) => setImmediate(resolve));
          seen.push(e.type);
          void subscription.stop();
        });
        await subscription.done;
        expect(seen).toEqual(['One']);
      });

      it('stopped from outside while its handler runs, waits for that handler to finish and delivers nothing after', async () => {
        const s = stream('stopping-outside');
        const checkpoint = await store.headPosition();
        await store.append(s, [event('One'), event('Two')], 'no_stream');
        let entered!: () => void;
        const handling = new Promise<void>((resolve) => (entered = resolve));
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const seen: string[] = [];
        const finished: string[] = [];
        const subscription = store.subscribeToAll({ after: checkpoint, streamPrefixes: [s] }, async (e) => {
          seen.push(e.type);
          entered();
          await gate;
          finished.push(e.type);
        });
        await handling;
        let stopped = false;
        const stopping = subscription.stop().then(() => (stopped = true));
        for (let i = 0; i < 5; i++) await new Promise<void>((resolve) => setImmediate(resolve));
        expect(stopped).toBe(false);
        release();
        await stopping;
        expect(finished).toEqual(['One']);
        expect(seen).toEqual(['One']);
      });
    });

    describe('truncateBefore', () => {
      it('drops the events before a revision; the rest keep their revisions and the stream continues its numbering', async () => {
        const s = stream('truncate');
        await store.append(s, [event('A'), event('B'), event('C'), event('D')], 'no_stream');
        await store.truncateBefore(s, 2n);
        expect((await store.readStream(s)).map((e) => [e.type, e.revision])).toEqual([
          ['C', 2n],
          ['D', 3n],
        ]);
        expect((await store.readStream(s, { direction: 'backwards', maxCount: 1 }))[0].type).toBe('D');
        await store.append(s, [event('E')], 3n);
        expect((await store.readStream(s)).map((e) => e.revision)).toEqual([2n, 3n, 4n]);
        // Again, or lower: nothing more goes.
        await store.truncateBefore(s, 1n);
        expect((await store.readStream(s)).map((e) => e.type)).toEqual(['C', 'D', 'E']);
      });
    });

    describe('deleteStream', () => {
      it('respects the expected revision, then makes the stream unreadable', async () => {
        const s = stream('delete');
        await store.append(s, [event('A'), event('B'), event('C')], 'no_stream');
        await expectConflict(store.deleteStream(s, 1n), { stream: s, expected: '1', actual: '2' });
        await expectConflict(store.deleteStream(s, 'no_stream'), { stream: s, expected: 'no_stream', actual: '2' });
        expect(await types(store, s)).toEqual(['A', 'B', 'C']);

        await store.deleteStream(s, 2n);
        await expect(store.readStream(s)).rejects.toBeInstanceOf(StreamNotFoundError);
      });

      it.each(['no_stream', 'any'] as const)('recreates with %s, continuing the revisions after the deleted ones', async (expected) => {
        const s = stream('recreate');
        await store.append(s, [event('Old0'), event('Old1')], 'no_stream');
        await store.deleteStream(s);
        const result = await store.append(s, [event('New')], expected);
        expect(result.nextExpectedRevision).toBe(2n);
        expect((await store.readStream(s)).map((e) => [e.type, e.revision])).toEqual([['New', 2n]]);
      });

      it('treats a deleted or never-written stream as missing for stream_exists', async () => {
        const deleted = stream('gone');
        await store.append(deleted, [event('A')], 'no_stream');
        await store.deleteStream(deleted, 'stream_exists');
        await expectConflict(store.deleteStream(deleted, 'stream_exists'), { stream: deleted, expected: 'stream_exists', actual: 'no_stream' });
        const never = stream('never');
        await expectConflict(store.deleteStream(never, 'stream_exists'), { stream: never, expected: 'stream_exists', actual: 'no_stream' });
        await store.deleteStream(never, 'no_stream');
      });
    });

    describe('stream metadata', () => {
      it('round-trips metadata, replaced as a whole, kept out of the stream and the log', async () => {
        const s = stream('meta');
        expect(await store.getStreamMetadata(s)).toBeUndefined();
        await store.append(s, [event('A')], 'no_stream');

        await store.setStreamMetadata(s, { maxAge: 3600, custom: { purpose: 'consent', erase_after_days: 30 } });
        expect(await store.getStreamMetadata(s)).toEqual({ maxAge: 3600, custom: { purpose: 'consent', erase_after_days: 30 } });

        await store.setStreamMetadata(s, { maxCount: 10 });
        expect(await store.getStreamMetadata(s)).toEqual({ maxCount: 10 });

        expect(await types(store, s)).toEqual(['A']);
        const [only] = await store.readStream(s);
        const log = await store.readAll({ after: only.position - 1n, maxCount: 50 });
        expect(log.filter((e) => e.streamName.includes(s)).map((e) => e.type)).toEqual(['A']);
      });
    });

    it('answers ping while open', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}

function event(type: string): NewEvent {
  return { type, data: { at: type } };
}

async function types(store: EventStore, stream: string): Promise<string[]> {
  return (await store.readStream(stream)).map((e) => e.type);
}

/** The rejection of a promise that must fail; fails the test if it resolves. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the operation to fail, but it succeeded');
}

async function expectConflict(
  promise: Promise<unknown>,
  fields: { stream: string; expected: string; actual: string },
): Promise<ConcurrencyError> {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(ConcurrencyError);
  expect({ ...(error as ConcurrencyError) }).toMatchObject(fields);
  return error as ConcurrencyError;
}

function collect(
  store: EventStore,
  options: SubscribeOptions,
  onlyStream?: string,
  slow?: () => Promise<void>,
): { received: RecordedEvent[]; subscription: Subscription } {
  const received: RecordedEvent[] = [];
  const subscription = store.subscribeToAll(options, async (e) => {
    if (onlyStream !== undefined && e.streamName !== onlyStream) return;
    received.push(e);
    await slow?.();
  });
  return { received, subscription };
}

/** Polls until the condition holds; on time-out fails with what was received, not with a bare jest timeout. */
async function waitFor(condition: () => boolean, received: RecordedEvent[]): Promise<void> {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > deadline) {
      throw new Error(`subscription did not deliver in time; got ${received.map((e) => `${e.type}@${e.revision}`).join(', ')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function expectIncreasingPositions(events: RecordedEvent[]): void {
  for (let i = 1; i < events.length; i++) expect(events[i].position).toBeGreaterThan(events[i - 1].position);
}
