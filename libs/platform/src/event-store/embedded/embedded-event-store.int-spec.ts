import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { open } from 'lmdb';
import { StreamNotFoundError } from '../errors.js';
import { describeEventStoreContract } from '../event-store.contract.js';
import type { RecordedEvent } from '../event-store.port.js';
import { EmbeddedEventStore } from './embedded-event-store.js';
import { runStoreChildSync, spawnStoreChild } from './testing/spawn-child.js';

const dirs: string[] = [];
function freshDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'embedded-event-store-'));
  dirs.push(dir);
  return dir;
}

/** Waits for something another process or a subscription does; fails with a message rather than the jest timeout. */
async function eventually(condition: () => boolean, what: () => string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`gave up waiting: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const contractDir = freshDir();
describeEventStoreContract('embedded (LMDB)', () => EmbeddedEventStore.open(contractDir));

describe('EmbeddedEventStore', () => {
  it('finds everything again after close and reopen', async () => {
    const dir = freshDir();
    const first = await EmbeddedEventStore.open(dir);
    await first.append('reopen_kept-1', [{ type: 'A', data: { n: 1 } }, { type: 'B', data: { n: 2 } }], 'no_stream');
    await first.append('reopen_gone-1', [{ type: 'Secret', data: { pii: 'x' } }], 'no_stream');
    await first.deleteStream('reopen_gone-1');
    await first.setStreamMetadata('reopen_kept-1', { custom: { purpose: 'test' } });
    const head = await first.headPosition();
    await first.close();

    const second = await EmbeddedEventStore.open(dir);
    try {
      expect((await second.readStream('reopen_kept-1')).map((e) => [e.type, e.data, e.revision, e.position])).toEqual([
        ['A', { n: 1 }, 0n, 1n],
        ['B', { n: 2 }, 1n, 2n],
      ]);
      await expect(second.readStream('reopen_gone-1')).rejects.toBeInstanceOf(StreamNotFoundError);
      expect(await second.getStreamMetadata('reopen_kept-1')).toEqual({ custom: { purpose: 'test' } });
      expect(await second.headPosition()).toBe(head);
      // Numbering resumes after the reopen: positions are never reused, the deleted stream continues its revisions.
      expect(await second.append('reopen_gone-1', [{ type: 'Again', data: {} }], 'no_stream')).toEqual({
        nextExpectedRevision: 1n,
        position: 4n,
      });
    } finally {
      await second.close();
    }
  });

  it('erases a deleted stream from the log: readAll and later subscriptions never see it', async () => {
    const store = await EmbeddedEventStore.open(freshDir());
    try {
      await store.append('erase_keep-1', [{ type: 'Before', data: {} }], 'no_stream');
      await store.append('erase_consent-1', [{ type: 'ConsentGranted', data: { customer_id: 'c1' } }], 'no_stream');
      await store.append('erase_keep-1', [{ type: 'After', data: {} }], 0n);
      await store.deleteStream('erase_consent-1', 0n);

      expect((await store.readAll()).map((e) => [e.type, e.position])).toEqual([
        ['Before', 1n],
        ['After', 3n],
      ]);

      const seen: RecordedEvent[] = [];
      const subscription = store.subscribeToAll({}, (e) => {
        seen.push(e);
      });
      await store.append('erase_keep-1', [{ type: 'Sentinel', data: {} }], 1n);
      await eventually(() => seen.some((e) => e.type === 'Sentinel'), () => `saw ${seen.map((e) => e.type).join(', ')}`);
      await subscription.stop();
      expect(seen.map((e) => e.type)).toEqual(['Before', 'After', 'Sentinel']);
    } finally {
      await store.close();
    }
  });

  it('ends its subscriptions when it closes', async () => {
    const store = await EmbeddedEventStore.open(freshDir());
    const subscription = store.subscribeToAll({}, () => undefined);
    await store.close();
    await expect(subscription.done).resolves.toBeUndefined();
    await expect(store.append('closed_store-1', [{ type: 'A', data: {} }], 'any')).rejects.toThrow('closed');
  });

  it('rejects data that is not JSON before writing anything', async () => {
    const store = await EmbeddedEventStore.open(freshDir());
    try {
      await expect(store.append('json_only-1', [{ type: 'A', data: { big: 1n } }], 'no_stream')).rejects.toThrow('JSON');
      await expect(store.readStream('json_only-1')).rejects.toBeInstanceOf(StreamNotFoundError);
      expect(await store.headPosition()).toBe(0n);
    } finally {
      await store.close();
    }
  });

  describe('category index (filtered subscriptions)', () => {
    /** Collects what a filtered subscription delivers until `last` arrives. */
    async function deliveredUntil(store: EmbeddedEventStore, prefixes: string[], last: string): Promise<RecordedEvent[]> {
      const seen: RecordedEvent[] = [];
      const subscription = store.subscribeToAll({ streamPrefixes: prefixes }, (e) => {
        seen.push(e);
      });
      try {
        await eventually(() => seen.some((e) => e.type === last), () => `saw ${seen.length} events, not ${last}`);
      } finally {
        await subscription.stop();
      }
      return seen;
    }

    it('delivers several categories in position order across many reads, and only the streams their prefixes name', async () => {
      const store = await EmbeddedEventStore.open(freshDir());
      try {
        const expected: Array<[string, string]> = [];
        // Far more than one subscription read (256) of each category, unevenly interleaved with each other and with noise.
        // Appends issued in one turn are written in call order (one transaction), so positions follow this loop.
        const appends: Array<Promise<unknown>> = [];
        for (let i = 0; i < 700; i++) {
          const stream = i % 7 === 0 ? `idx_b-${i % 3}` : i % 2 === 0 ? `idx_a-keep${i % 5}` : `idx_a-drop${i % 5}`;
          appends.push(store.append(stream, [{ type: `E${i}`, data: { i } }], 'any'));
          appends.push(store.append(`idx_noise-${i % 4}`, [{ type: 'Noise', data: {} }], 'any'));
          if (!stream.startsWith('idx_a-drop')) expected.push([stream, `E${i}`]);
        }
        // Then a stretch of one category alone, longer than a read: the other category has nothing to add there.
        for (let i = 700; i < 1500; i++) {
          appends.push(store.append('idx_a-keep9', [{ type: `E${i}`, data: { i } }], 'any'));
          expected.push(['idx_a-keep9', `E${i}`]);
        }
        await Promise.all(appends);
        await store.append('idx_a-keep9', [{ type: 'Last', data: {} }], 'any');
        expected.push(['idx_a-keep9', 'Last']);

        const seen = await deliveredUntil(store, ['idx_a-keep', 'idx_b-'], 'Last');
        expect(seen.map((e) => [e.streamName, e.type])).toEqual(expected);
        expect(seen.map((e) => e.position)).toEqual([...seen.map((e) => e.position)].sort((a, b) => (a < b ? -1 : 1)));
      } finally {
        await store.close();
      }
    });

    it('forgets the events of a deleted stream', async () => {
      const store = await EmbeddedEventStore.open(freshDir());
      try {
        await store.append('idx_gone-1', [{ type: 'Erased', data: {} }], 'no_stream');
        await store.append('idx_gone-2', [{ type: 'Kept', data: {} }], 'no_stream');
        await store.deleteStream('idx_gone-1');
        await store.append('idx_gone-2', [{ type: 'Last', data: {} }], 0n);
        expect((await deliveredUntil(store, ['idx_gone-'], 'Last')).map((e) => e.type)).toEqual(['Kept', 'Last']);
      } finally {
        await store.close();
      }
    });

    it('is built when a format-1 store (before the index) is opened, and the store is format 2 afterwards', async () => {
      const dir = freshDir();
      // Format 1 as an earlier build wrote it: the log, the stream index, stream records, head and format.
      const old = open({ path: dir, maxDbs: 8 });
      const oldEvents = old.openDB<Record<string, unknown>, number>('events', { encoding: 'json' });
      const oldIndex = old.openDB<number, [string, number]>('stream_index', { encoding: 'json' });
      const oldStreams = old.openDB<Record<string, unknown>, string>('streams', { encoding: 'json' });
      const oldState = old.openDB<number, string>('state', { encoding: 'json' });
      const written: Array<[string, number]> = [
        ['legacy_key-1', 0],
        ['legacy_access-1', 0],
        ['legacy_key-2', 0],
        ['legacy_key-1', 1],
      ];
      await old.transaction(() => {
        written.forEach(([stream, revision], index) => {
          oldEvents.putSync(index + 1, { id: randomUUID(), stream, type: `Old${index + 1}`, revision, data: { index }, metadata: {}, createdAt: Date.now() });
          oldIndex.putSync([stream, revision], index + 1);
          oldStreams.putSync(stream, { lastRevision: revision, deleted: false });
        });
        oldState.putSync('head', written.length);
        oldState.putSync('format', 1);
      });
      await old.close();

      const store = await EmbeddedEventStore.open(dir);
      try {
        await store.append('legacy_key-2', [{ type: 'Last', data: {} }], 0n);
        expect((await deliveredUntil(store, ['legacy_key-'], 'Last')).map((e) => [e.streamName, e.type, e.position])).toEqual([
          ['legacy_key-1', 'Old1', 1n],
          ['legacy_key-2', 'Old3', 3n],
          ['legacy_key-1', 'Old4', 4n],
          ['legacy_key-2', 'Last', 5n],
        ]);
        expect((await store.readStream('legacy_key-1')).map((e) => e.data)).toEqual([{ index: 0 }, { index: 3 }]);
      } finally {
        await store.close();
      }
      const reopened = open({ path: dir, maxDbs: 8 });
      try {
        expect(reopened.openDB<number, string>('state', { encoding: 'json' }).get('format')).toBe(2);
      } finally {
        await reopened.close();
      }
    });
  });

  describe('across processes', () => {
    it('keeps every acknowledged append when the writer is killed with SIGKILL, and the log stays consistent', async () => {
      const dir = freshDir();
      const child = spawnStoreChild(['append-forever', dir, '4']);
      await child.until(() => child.acks.length >= 400);
      child.kill('SIGKILL');
      expect((await child.exited).signal).toBe('SIGKILL');
      const acked = [...child.acks];

      const store = await EmbeddedEventStore.open(dir);
      try {
        // Every acknowledged append is there, at the position the child was told.
        for (const ack of acked) {
          const [event] = await store.readStream(ack.stream, { fromRevision: ack.revision, maxCount: 1 });
          expect([event?.revision, event?.position]).toEqual([ack.revision, ack.position]);
        }

        // The log: positions 1..head with no gap, as nothing was deleted.
        const log = await store.readAll();
        const head = await store.headPosition();
        expect(log.map((e) => e.position)).toEqual(Array.from({ length: Number(head) }, (_, i) => BigInt(i + 1)));
        expect(log.length).toBeGreaterThanOrEqual(acked.length);

        // Each stream index agrees with the log: the same events, revisions 0..n-1, in position order.
        const byStream = new Map<string, RecordedEvent[]>();
        for (const e of log) byStream.set(e.streamName, [...(byStream.get(e.streamName) ?? []), e]);
        expect(byStream.size).toBe(4);
        for (const [stream, events] of byStream) {
          const read = await store.readStream(stream);
          expect(read.map((e) => [e.id, e.position])).toEqual(events.map((e) => [e.id, e.position]));
          expect(read.map((e) => e.revision)).toEqual(read.map((_, i) => BigInt(i)));
        }

        // And the store is writable again at the right revision.
        const [last] = await store.readStream('crash_writer0-1', { direction: 'backwards', maxCount: 1 });
        const after = await store.append('crash_writer0-1', [{ type: 'AfterCrash', data: {} }], last.revision);
        expect(after).toEqual({ nextExpectedRevision: last.revision + 1n, position: head + 1n });
      } finally {
        await store.close();
      }
    });

    it("reads what another process acknowledged earlier in the same event-loop turn", async () => {
      const dir = freshDir();
      const stream = 'shared_stream-1';
      const store = await EmbeddedEventStore.open(dir);
      try {
        await store.append(stream, [{ type: 'Here', data: {} }], 'no_stream');
        // From here to the end, one event-loop turn: awaits below resolve as microtasks, and the child runs
        // while this process waits for it. The first reads start lmdb-js's read snapshot for the turn.
        expect(await store.streamRevision(stream)).toBe(0n);
        expect(await store.headPosition()).toBe(1n);
        expect(runStoreChildSync(['append-one', dir, stream])).toEqual(['ready', `ack ${stream} 1 2`]);
        expect(await store.streamRevision(stream)).toBe(1n);
        expect(await store.headPosition()).toBe(2n);
        expect((await store.readStream(stream)).map((e) => e.type)).toEqual(['Here', 'FromAnotherProcess']);
        expect((await store.readAll()).map((e) => e.position)).toEqual([1n, 2n]);
      } finally {
        await store.close();
      }
    });

    // ADR 0046: with lmdb-js's overlappingSync, about one such round in 25 acknowledged an append that the next
    // transaction then overwrote (two acks of one revision, one event missing), always early in a fresh store.
    it('keeps every acknowledged append when two processes contend over fresh stores, round after round', async () => {
      const rounds = 8;
      const perWriter = 40;
      for (let round = 0; round < rounds; round++) {
        const dir = freshDir();
        const stream = `fresh_contended-${round}`;
        const writers = [spawnStoreChild(['contend', dir, stream, 'A', `${perWriter}`]), spawnStoreChild(['contend', dir, stream, 'B', `${perWriter}`])];
        const exits = await Promise.all(writers.map((w) => w.exited));
        expect(exits.map((e) => e.code)).toEqual([0, 0]);
        const acked = writers.flatMap((w) => w.acks.map((a) => `${a.revision}@${a.position}`));
        const reader = await EmbeddedEventStore.open(dir);
        try {
          const stored = (await reader.readStream(stream)).map((e) => `${e.revision}@${e.position}`);
          expect({ round, acknowledgedTwice: acked.filter((a, i) => acked.indexOf(a) !== i), stored: stored.length }).toEqual({
            round,
            acknowledgedTwice: [],
            stored: perWriter * 2,
          });
          expect([...acked].sort()).toEqual([...stored].sort());
        } finally {
          await reader.close();
        }
      }
    }, 120_000);

    it('lets two processes contend on one stream without lost or duplicated revisions, and a third sees every event', async () => {
      const dir = freshDir();
      const stream = 'contended_stream-1';
      const observer = await EmbeddedEventStore.open(dir);
      const observed: RecordedEvent[] = [];
      // No in-process append wakes this subscription: it only sees the children's events by polling.
      const subscription = observer.subscribeToAll({ streamPrefixes: [stream] }, (e) => {
        observed.push(e);
      });
      try {
        const perWriter = 60;
        const writers = [spawnStoreChild(['contend', dir, stream, 'A', `${perWriter}`]), spawnStoreChild(['contend', dir, stream, 'B', `${perWriter}`])];
        const exits = await Promise.all(writers.map((w) => w.exited));
        expect(exits.map((e) => e.code)).toEqual([0, 0]);

        const total = perWriter * 2;
        const all = Array.from({ length: total }, (_, i) => BigInt(i));
        const events = await observer.readStream(stream);
        if (events.length !== total) {
          // Say which of two faults it is: this process reading an old snapshot (a later read or another
          // process sees every event) or an acknowledged append missing from the store (nobody sees it; what
          // this message showed before ADR 0046).
          await new Promise((resolve) => setTimeout(resolve, 100));
          const again = (await observer.readStream(stream)).map((e) => `${e.revision}@${e.position}`);
          const fresh = runStoreChildSync(['read', dir, stream])
            .filter((line) => line.startsWith('revision '))
            .map((line) => line.split(' ').slice(1).join('@'));
          const acks = writers.map((w, i) => `${'AB'[i]}: ${w.acks.map((a) => `${a.revision}@${a.position}`).join(' ')}`);
          throw new Error(
            [
              `the observer read ${events.length} of ${total} events: ${events.map((e) => `${e.revision}@${e.position}`).join(' ')}`,
              `read again 100 ms later: ${again.length} events, last ${again.at(-1)}`,
              `read by a new process: ${fresh.length} events, last ${fresh.at(-1)}`,
              'acknowledged (revision@position):',
              ...acks,
            ].join('\n'),
          );
        }
        expect(events.map((e) => e.revision)).toEqual(all);
        const writes = events.map((e) => `${String(e.data.writer)}:${String(e.data.seq)}`).sort();
        const expected = ['A', 'B'].flatMap((w) => Array.from({ length: perWriter }, (_, seq) => `${w}:${seq}`)).sort();
        expect(writes).toEqual(expected);
        // Every event landed exactly where its writer expected the stream to end: the check and the write were atomic.
        expect(events.map((e) => e.data.expected)).toEqual(events.map((e) => (e.revision === 0n ? 'no_stream' : String(e.revision - 1n))));

        // Each revision was acknowledged to exactly one writer.
        const acked = writers.flatMap((w) => w.acks.map((a) => a.revision)).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
        expect(acked).toEqual(all);

        await eventually(() => observed.length >= total, () => `observed ${observed.length} of ${total}`);
        await subscription.stop();
        expect(observed.map((e) => e.revision)).toEqual(all);
      } finally {
        await observer.close();
      }
    });
  });
});
