/**
 * The one contract every ReadStore adapter passes (style.md, "Tests"). Each
 * test declares its own collection with a per-run random suffix, so the suite
 * can run against a shared MongoDB without tripping over earlier runs.
 *
 * Globals come from @jest/globals so this file also compiles in the
 * production build, which has no jest types.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { InvalidParamError } from '../errors.js';
import { InvalidCursorError, InvalidDocumentError, InvalidQueryError, UnknownIndexError } from './errors.js';
import type { Doc, IndexSpec, Query, ReadCollection, ReadStore, Scalar } from './read-store.port.js';

interface Item extends Doc {
  status?: string | null;
  at?: string;
  amount?: number;
  v?: Scalar;
  n?: number;
  applied?: number[];
  [field: string]: unknown;
}

const BY_STATUS_AT: IndexSpec = { name: 'by_status_at', fields: ['status', 'at'] };
const BY_AT: IndexSpec = { name: 'by_at', fields: ['at'] };
const BY_AMOUNT: IndexSpec = { name: 'by_amount', fields: ['amount'] };
const BY_STATUS_AMOUNT: IndexSpec = { name: 'by_status_amount', fields: ['status', 'amount'] };
const BY_V: IndexSpec = { name: 'by_v', fields: ['v'] };

export function describeReadStoreContract(
  adapter: string,
  open: () => Promise<ReadStore>,
  cleanup?: () => Promise<void>,
): void {
  describe(`ReadStore contract: ${adapter}`, () => {
    const run = `contract_${randomBytes(4).toString('hex')}`;
    let store: ReadStore;
    let seq = 0;

    beforeAll(async () => {
      store = await open();
    });

    afterAll(async () => {
      await store?.close();
      await cleanup?.();
    });

    const fresh = (indexes: IndexSpec[] = [BY_STATUS_AT, BY_AT, BY_AMOUNT]): Promise<ReadCollection<Item>> =>
      store.collection<Item>(`${run}_${++seq}`, indexes);

    /** Writes each document at position 1 (or the given one), all concurrently. */
    const seed = async (collection: ReadCollection<Item>, docs: Item[], position = 1n): Promise<void> => {
      const applied = await Promise.all(docs.map((doc) => collection.apply(doc.id, position, () => doc)));
      expect(applied.every(Boolean)).toBe(true);
    };

    const ids = (page: { items: Item[] }): string[] => page.items.map((item) => item.id);

    /** Follows nextCursor to the end; answers the ids in order and the page count. */
    const allPages = async (collection: ReadCollection<Item>, query: Query): Promise<{ ids: string[]; pages: number }> => {
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const page = await collection.find({ ...query, cursor });
        expect(page.items.length).toBeLessThanOrEqual(query.limit ?? 100);
        seen.push(...ids(page));
        cursor = page.nextCursor ?? undefined;
        pages++;
        expect(pages).toBeLessThan(1000);
      } while (cursor);
      return { ids: seen, pages };
    };

    describe('apply and get', () => {
      it('round-trips a document and the position that wrote it', async () => {
        const things = await fresh();
        const doc: Item = { id: 'a', status: 'open', n: 1, nested: { tags: ['x', 'y'], ok: true, none: null } };
        expect(await things.apply('a', 10n, () => doc)).toBe(true);
        expect(await things.get('a')).toEqual(doc);
        expect(await things.getStored('a')).toEqual({ doc, position: 10n });
        expect(await things.get('missing')).toBeUndefined();
        expect(await things.getStored('missing')).toBeUndefined();
      });

      it('hands evolve the current document', async () => {
        const things = await fresh();
        await things.apply('a', 1n, (current) => ({ id: 'a', n: (current?.n ?? 0) + 1 }));
        await things.apply('a', 2n, (current) => ({ id: 'a', n: (current?.n ?? 0) + 1 }));
        expect(await things.getStored('a')).toEqual({ doc: { id: 'a', n: 2 }, position: 2n });
      });

      it('reads several documents by id, in the order asked, undefined where there is none', async () => {
        const things = await fresh();
        await seed(things, [
          { id: 'a', n: 1 },
          { id: 'b', n: 2 },
          { id: 'c', n: 3 },
        ]);
        await things.apply('c', 2n, () => null);
        expect(await things.getMany(['b', 'missing', 'a', 'c', 'b'])).toEqual([{ id: 'b', n: 2 }, undefined, { id: 'a', n: 1 }, undefined, { id: 'b', n: 2 }]);
        expect(await things.getMany([])).toEqual([]);
        await expect(things.getMany(Array.from({ length: 1001 }, (_, i) => `x${i}`))).rejects.toBeInstanceOf(InvalidQueryError);
      });

      it('keeps positions beyond the signed 64-bit range', async () => {
        const things = await fresh();
        const high = 2n ** 64n - 2n;
        expect(await things.apply('a', high, () => ({ id: 'a', n: 1 }))).toBe(true);
        expect(await things.apply('a', high - 1n, () => ({ id: 'a', n: 2 }))).toBe(false);
        expect(await things.getStored('a')).toEqual({ doc: { id: 'a', n: 1 }, position: high });
      });
    });

    describe('idempotency', () => {
      it('answers false and changes nothing for the same position again or a lower one', async () => {
        const things = await fresh();
        expect(await things.apply('a', 5n, () => ({ id: 'a', status: 'open', n: 1 }))).toBe(true);
        expect(await things.apply('a', 5n, () => ({ id: 'a', status: 'closed', n: 2 }))).toBe(false);
        expect(await things.apply('a', 4n, () => ({ id: 'a', status: 'closed', n: 3 }))).toBe(false);
        expect(await things.getStored('a')).toEqual({ doc: { id: 'a', status: 'open', n: 1 }, position: 5n });
        expect(ids(await things.find({ index: BY_STATUS_AT.name, equals: ['closed'] }))).toEqual([]);
      });
    });

    describe('deletion', () => {
      it('deletes on null and keeps the position, so an older event cannot resurrect it', async () => {
        const things = await fresh();
        await things.apply('a', 1n, () => ({ id: 'a', status: 'open' }));
        expect(await things.apply('a', 2n, () => null)).toBe(true);
        expect(await things.get('a')).toBeUndefined();
        expect(await things.getStored('a')).toBeUndefined();

        expect(await things.apply('a', 2n, () => ({ id: 'a', status: 'open' }))).toBe(false);
        expect(await things.apply('a', 1n, () => ({ id: 'a', status: 'open' }))).toBe(false);
        expect(await things.get('a')).toBeUndefined();
        expect(await things.count({ index: BY_STATUS_AT.name, equals: ['open'] })).toBe(0);

        expect(await things.apply('a', 3n, (current) => ({ id: 'a', status: 'again', n: current === undefined ? 0 : 1 }))).toBe(true);
        expect(await things.getStored('a')).toEqual({ doc: { id: 'a', status: 'again', n: 0 }, position: 3n });
      });

      it('records the position of a delete for a document it never had', async () => {
        const things = await fresh();
        expect(await things.apply('ghost', 5n, () => null)).toBe(true);
        expect(await things.apply('ghost', 4n, () => ({ id: 'ghost' }))).toBe(false);
        expect(await things.get('ghost')).toBeUndefined();
      });
    });

    describe('concurrency', () => {
      it('applies concurrent writes to one id without losing one or applying an older after a newer', async () => {
        const things = await fresh();
        // 17 is coprime with 41, so this visits 1..40 in a scrambled order.
        const positions = Array.from({ length: 40 }, (_, i) => ((i + 1) * 17) % 41);
        const answers = await Promise.all(
          positions.map((p) => things.apply('x', BigInt(p), (current) => ({ id: 'x', applied: [...(current?.applied ?? []), p] }))),
        );
        const accepted = positions.filter((_, i) => answers[i]).sort((a, b) => a - b);
        const stored = await things.getStored('x');
        expect(stored?.position).toBe(40n);
        expect(accepted).toContain(40);
        // Every write that answered true is in the document, in position order.
        expect(stored?.doc.applied).toEqual(accepted);
      });

      it('keeps concurrent writes to different ids apart', async () => {
        const things = await fresh();
        const docs = Array.from({ length: 30 }, (_, i): Item => ({ id: `d${i}`, status: 'open', amount: i }));
        await seed(things, docs);
        expect(await things.count({ index: BY_AMOUNT.name })).toBe(30);
        for (const doc of docs) expect(await things.get(doc.id)).toEqual(doc);
      });
    });

    describe('find', () => {
      const minute = (m: number) => `2024-03-01T10:${String(m).padStart(2, '0')}:00.000Z`;
      // Times repeat (e00 and e06 share 10:00), so the id breaks ties.
      const events: Item[] = Array.from({ length: 12 }, (_, i) => ({
        id: `e${String(i).padStart(2, '0')}`,
        status: i % 2 === 0 ? 'open' : 'closed',
        at: minute((i % 6) * 10),
        amount: i,
      }));
      const byTime = [...events].sort((a, b) => (a.at! < b.at! ? -1 : a.at! > b.at! ? 1 : a.id < b.id ? -1 : 1));

      it('finds by an equality prefix, ascending and descending', async () => {
        const things = await fresh();
        await seed(things, events);
        const open = byTime.filter((e) => e.status === 'open').map((e) => e.id);
        expect(ids(await things.find({ index: BY_STATUS_AT.name, equals: ['open'] }))).toEqual(open);
        expect(ids(await things.find({ index: BY_STATUS_AT.name, equals: ['open'], direction: 'desc' }))).toEqual([...open].reverse());
        expect(ids(await things.find({ index: BY_STATUS_AT.name, equals: ['open', minute(20)] }))).toEqual(
          byTime.filter((e) => e.status === 'open' && e.at === minute(20)).map((e) => e.id),
        );
        expect((await things.find({ index: BY_STATUS_AT.name, equals: ['open'] })).items[0]).toEqual(
          events.find((e) => e.id === open[0]),
        );
        expect(ids(await things.find({ index: BY_STATUS_AT.name, equals: ['nobody'] }))).toEqual([]);
      });

      it('finds by a range on ISO times with each bound kind', async () => {
        const things = await fresh();
        await seed(things, events);
        const between = (test: (at: string) => boolean) => byTime.filter((e) => test(e.at!)).map((e) => e.id);
        const at = (range: Query['range'], direction: Query['direction'] = 'asc') =>
          things.find({ index: BY_AT.name, range, direction }).then(ids);

        expect(await at({ gte: minute(10), lt: minute(30) })).toEqual(between((t) => t >= minute(10) && t < minute(30)));
        expect(await at({ gt: minute(10), lte: minute(30) })).toEqual(between((t) => t > minute(10) && t <= minute(30)));
        expect(await at({ gt: minute(40) })).toEqual(between((t) => t > minute(40)));
        expect(await at({ lte: minute(0) })).toEqual(between((t) => t <= minute(0)));
        expect(await at({ lt: minute(0) })).toEqual([]);
        expect(await at({ gte: minute(20) }, 'desc')).toEqual(between((t) => t >= minute(20)).reverse());
        // Between two stored values, and a bound that is a prefix of them.
        expect(await at({ gt: '2024-03-01T10:15', lt: '2024-03-01T10:35' })).toEqual(between((t) => t > minute(15) && t < minute(35)));
        expect(await at({ gte: '2024-03-01T10:5' })).toEqual(between((t) => t >= minute(50)));

        const openLate = byTime.filter((e) => e.status === 'open' && e.at! >= minute(20)).map((e) => e.id);
        expect(ids(await things.find({ index: BY_STATUS_AT.name, equals: ['open'], range: { gte: minute(20) } }))).toEqual(openLate);
      });

      it('finds by a range on numbers in numeric order', async () => {
        const things = await fresh();
        const amounts = [1000.25, -10, 2.5, 100, -1.5, 0, 10, 2];
        await seed(things, amounts.map((amount, i) => ({ id: `n${i}`, amount })));
        const find = async (range: Query['range'], direction: Query['direction'] = 'asc') =>
          (await things.find({ index: BY_AMOUNT.name, range, direction })).items.map((item) => item.amount);

        expect((await things.find({ index: BY_AMOUNT.name })).items.map((item) => item.amount)).toEqual([
          -10, -1.5, 0, 2, 2.5, 10, 100, 1000.25,
        ]);
        expect(await find({ gte: 0, lt: 10 })).toEqual([0, 2, 2.5]);
        expect(await find({ gt: -1.5, lte: 10 })).toEqual([0, 2, 2.5, 10]);
        expect(await find({ gt: 2 }, 'desc')).toEqual([1000.25, 100, 10, 2.5]);
        expect(await find({ lt: 0 })).toEqual([-10, -1.5]);
        expect(await find({ gt: 5, lt: 9 })).toEqual([]);
      });

      it('pages with a cursor through every document exactly once, both ways', async () => {
        const things = await fresh([BY_STATUS_AMOUNT]);
        // Amounts repeat, so pages break inside runs of equal values.
        const docs = Array.from({ length: 25 }, (_, i): Item => ({ id: `p${String(i).padStart(2, '0')}`, status: 'p', amount: i % 4 }));
        await seed(things, [...docs, { id: 'other', status: 'q', amount: 1 }]);
        const order = [...docs].sort((a, b) => a.amount! - b.amount! || (a.id < b.id ? -1 : 1)).map((d) => d.id);

        const asc = await allPages(things, { index: BY_STATUS_AMOUNT.name, equals: ['p'], limit: 7 });
        expect(asc).toEqual({ ids: order, pages: 4 });
        const desc = await allPages(things, { index: BY_STATUS_AMOUNT.name, equals: ['p'], limit: 7, direction: 'desc' });
        expect(desc.ids).toEqual([...order].reverse());

        const ranged = await allPages(things, { index: BY_STATUS_AMOUNT.name, equals: ['p'], range: { gte: 1, lt: 3 }, limit: 4 });
        expect(ranged.ids).toEqual(docs.filter((d) => d.amount! >= 1 && d.amount! < 3).sort((a, b) => a.amount! - b.amount! || (a.id < b.id ? -1 : 1)).map((d) => d.id));

        const everything = await allPages(things, { index: BY_STATUS_AMOUNT.name, limit: 5 });
        expect(everything.ids).toEqual([...order, 'other']);

        // A page that ends exactly at the last document has no next cursor.
        const exact = await things.find({ index: BY_STATUS_AMOUNT.name, equals: ['q'], limit: 1 });
        expect(exact).toEqual({ items: [{ id: 'other', status: 'q', amount: 1 }], nextCursor: null });
      });

      it('orders one field holding several types: null, numbers, strings, booleans', async () => {
        const things = await fresh([BY_V]);
        await seed(things, [
          { id: 'b-true', v: true },
          { id: 'c-str-b', v: 'b' },
          { id: 'd-num-3', v: 3 },
          { id: 'e-null', v: null },
          { id: 'f-false', v: false },
          { id: 'g-missing' },
          { id: 'h-num-neg', v: -1 },
          { id: 'i-str-a', v: 'a' },
          { id: 'j-str-empty', v: '' },
        ]);
        const order = ['e-null', 'g-missing', 'h-num-neg', 'd-num-3', 'j-str-empty', 'i-str-a', 'c-str-b', 'f-false', 'b-true'];
        expect(ids(await things.find({ index: BY_V.name }))).toEqual(order);
        expect((await allPages(things, { index: BY_V.name, limit: 2 })).ids).toEqual(order);
        expect((await allPages(things, { index: BY_V.name, limit: 2, direction: 'desc' })).ids).toEqual([...order].reverse());

        // A range stays within its bound's type.
        expect(ids(await things.find({ index: BY_V.name, range: { gte: -100 } }))).toEqual(['h-num-neg', 'd-num-3']);
        expect(ids(await things.find({ index: BY_V.name, range: { lt: 'b' } }))).toEqual(['j-str-empty', 'i-str-a']);
        expect(ids(await things.find({ index: BY_V.name, range: { gte: false } }))).toEqual(['f-false', 'b-true']);
        expect(ids(await things.find({ index: BY_V.name, equals: [null] }))).toEqual(['e-null', 'g-missing']);
        expect(ids(await things.find({ index: BY_V.name, equals: [false] }))).toEqual(['f-false']);
      });

      it('defaults the limit to 100 and caps it at 1000', async () => {
        const things = await fresh([BY_AMOUNT]);
        await seed(things, Array.from({ length: 1001 }, (_, i) => ({ id: `l${String(i).padStart(4, '0')}`, amount: i })));
        const first = await things.find({ index: BY_AMOUNT.name });
        expect(first.items).toHaveLength(100);
        expect(first.nextCursor).not.toBeNull();
        const capped = await things.find({ index: BY_AMOUNT.name, limit: 5000 });
        expect(capped.items).toHaveLength(1000);
        const rest = await things.find({ index: BY_AMOUNT.name, limit: 5000, cursor: capped.nextCursor! });
        expect(rest).toEqual({ items: [{ id: 'l1000', amount: 1000 }], nextCursor: null });
      });
    });

    describe('scan', () => {
      const scanned = async (collection: ReadCollection<Item>, query: Omit<Query, 'limit' | 'cursor'>, batch?: number) => {
        const batches: string[][] = [];
        for await (const items of collection.scan(query, batch)) batches.push(items.map((item) => item.id));
        return batches;
      };

      it('streams every document the query finds, in its order, in batches of at most the size asked', async () => {
        const things = await fresh([BY_STATUS_AMOUNT]);
        // Amounts repeat, so batches break inside runs of equal values.
        const docs = Array.from({ length: 25 }, (_, i): Item => ({ id: `s${String(i).padStart(2, '0')}`, status: 's', amount: i % 4 }));
        await seed(things, [...docs, { id: 'other', status: 't', amount: 1 }]);
        const order = [...docs].sort((a, b) => a.amount! - b.amount! || (a.id < b.id ? -1 : 1)).map((d) => d.id);

        const asc = await scanned(things, { index: BY_STATUS_AMOUNT.name, equals: ['s'] }, 7);
        expect(asc.map((batch) => batch.length)).toEqual([7, 7, 7, 4]);
        expect(asc.flat()).toEqual(order);
        expect((await scanned(things, { index: BY_STATUS_AMOUNT.name, equals: ['s'], direction: 'desc' }, 10)).flat()).toEqual([...order].reverse());
        const ranged = await scanned(things, { index: BY_STATUS_AMOUNT.name, equals: ['s'], range: { gte: 1, lt: 3 } }, 4);
        expect(ranged.flat()).toEqual(docs.filter((d) => d.amount! >= 1 && d.amount! < 3).sort((a, b) => a.amount! - b.amount! || (a.id < b.id ? -1 : 1)).map((d) => d.id));
        // A whole batch's documents, not only their ids.
        for await (const [first] of things.scan({ index: BY_STATUS_AMOUNT.name, equals: ['t'] })) expect(first).toEqual({ id: 'other', status: 't', amount: 1 });
        expect(await scanned(things, { index: BY_STATUS_AMOUNT.name, equals: ['nobody'] })).toEqual([]);
      });

      it('defaults a batch to 100 documents and caps it at 1000', async () => {
        const things = await fresh([BY_AMOUNT]);
        await seed(things, Array.from({ length: 1001 }, (_, i) => ({ id: `b${String(i).padStart(4, '0')}`, amount: i })));
        expect((await scanned(things, { index: BY_AMOUNT.name })).map((batch) => batch.length)).toEqual([...Array.from({ length: 10 }, () => 100), 1]);
        const capped = await scanned(things, { index: BY_AMOUNT.name }, 5000);
        expect(capped.map((batch) => batch.length)).toEqual([1000, 1]);
        expect(capped.flat()).toEqual(Array.from({ length: 1001 }, (_, i) => `b${String(i).padStart(4, '0')}`));
      });

      it('refuses what find refuses, when the scan starts', async () => {
        const things = await fresh([BY_AMOUNT]);
        await expect(scanned(things, { index: 'by_nothing' })).rejects.toBeInstanceOf(UnknownIndexError);
        await expect(scanned(things, { index: BY_AMOUNT.name }, 0)).rejects.toBeInstanceOf(InvalidQueryError);
      });
    });

    describe('index maintenance', () => {
      it('moves a document between entries when an indexed field changes or goes', async () => {
        const things = await fresh();
        await things.apply('a', 1n, () => ({ id: 'a', status: 'open', at: '2024-01-01' }));
        await things.apply('a', 2n, (current) => ({ ...current!, status: 'closed' }));
        expect(ids(await things.find({ index: BY_STATUS_AT.name, equals: ['open'] }))).toEqual([]);
        expect(ids(await things.find({ index: BY_STATUS_AT.name, equals: ['closed'] }))).toEqual(['a']);

        await things.apply('a', 3n, () => ({ id: 'a', at: '2024-01-01' }));
        expect(ids(await things.find({ index: BY_STATUS_AT.name, equals: ['closed'] }))).toEqual([]);
        expect(ids(await things.find({ index: BY_STATUS_AT.name, equals: [null] }))).toEqual(['a']);
        expect(await things.count({ index: BY_STATUS_AT.name })).toBe(1);
      });

      it('builds an index declared later over the documents already there', async () => {
        const name = `${run}_${++seq}`;
        const before = await store.collection<Item>(name, [BY_STATUS_AT]);
        await seed(before, [
          { id: 'a', status: 'open', amount: 3 },
          { id: 'b', status: 'open', amount: 1 },
        ]);
        await before.apply('gone', 1n, () => null);

        const after = await store.collection<Item>(name, [BY_STATUS_AT, BY_AMOUNT]);
        expect(ids(await after.find({ index: BY_AMOUNT.name }))).toEqual(['b', 'a']);
        // The earlier handle sees the new index too, and a handle declared
        // without indexes still has both: declarations add, never drop.
        expect(ids(await before.find({ index: BY_AMOUNT.name, range: { gt: 2 } }))).toEqual(['a']);
        const bare = await store.collection<Item>(name);
        expect(ids(await bare.find({ index: BY_STATUS_AT.name, equals: ['open'] }))).toEqual(['a', 'b']);
        expect(await bare.count({ index: BY_AMOUNT.name })).toBe(2);
      });

      it('rebuilds an index redeclared with other fields', async () => {
        const name = `${run}_${++seq}`;
        const first = await store.collection<Item>(name, [{ name: 'by_x', fields: ['status'] }]);
        await seed(first, [
          { id: 'a', status: 'z', amount: 2 },
          { id: 'b', status: 'y', amount: 1 },
        ]);
        const second = await store.collection<Item>(name, [{ name: 'by_x', fields: ['amount'] }]);
        expect(ids(await second.find({ index: 'by_x', range: { gte: 1 } }))).toEqual(['b', 'a']);
        expect(ids(await second.find({ index: 'by_x', equals: ['z'] }))).toEqual([]);
      });
    });

    describe('count and deleteWhere', () => {
      it('counts what find would return', async () => {
        const things = await fresh();
        await seed(things, Array.from({ length: 9 }, (_, i): Item => ({ id: `c${i}`, status: i < 6 ? 'open' : 'closed', amount: i })));
        expect(await things.count({ index: BY_STATUS_AT.name })).toBe(9);
        expect(await things.count({ index: BY_STATUS_AT.name, equals: ['open'] })).toBe(6);
        expect(await things.count({ index: BY_AMOUNT.name, range: { gte: 2, lt: 7 } })).toBe(5);
        expect(await things.count({ index: BY_AMOUNT.name, range: { gt: 100 } })).toBe(0);
      });

      it('deletes what matches, leaving tombstones that stop a replay', async () => {
        const things = await fresh();
        await seed(
          things,
          Array.from({ length: 6 }, (_, i): Item => ({ id: `w${i}`, status: i % 3 === 0 ? 'erase' : 'keep', amount: i })),
          5n,
        );
        expect(await things.deleteWhere({ index: BY_STATUS_AT.name, equals: ['erase'] })).toBe(2);
        expect(await things.count({ index: BY_STATUS_AT.name, equals: ['erase'] })).toBe(0);
        expect(await things.count({ index: BY_AMOUNT.name })).toBe(4);
        expect(await things.get('w0')).toBeUndefined();
        expect(await things.get('w1')).toEqual({ id: 'w1', status: 'keep', amount: 1 });

        expect(await things.apply('w0', 5n, () => ({ id: 'w0', status: 'erase' }))).toBe(false);
        expect(await things.get('w0')).toBeUndefined();
        expect(await things.deleteWhere({ index: BY_STATUS_AT.name, equals: ['erase'] })).toBe(0);
        expect(await things.deleteWhere({ index: BY_AMOUNT.name, range: { gte: 4 } })).toBe(2);
        expect(ids(await things.find({ index: BY_AMOUNT.name }))).toEqual(['w1', 'w2']);
      });
    });

    describe('clear', () => {
      it('drops documents, tombstones and positions but keeps the indexes', async () => {
        const things = await fresh();
        await seed(things, [{ id: 'a', status: 'open' }, { id: 'b', status: 'open' }], 7n);
        await things.apply('b', 8n, () => null);
        await things.clear();
        expect(await things.get('a')).toBeUndefined();
        expect(await things.count({ index: BY_STATUS_AT.name })).toBe(0);
        expect(await things.find({ index: BY_STATUS_AT.name })).toEqual({ items: [], nextCursor: null });

        // A rebuild replays the log from the start: low positions apply again.
        expect(await things.apply('b', 1n, () => ({ id: 'b', status: 'open' }))).toBe(true);
        expect(ids(await things.find({ index: BY_STATUS_AT.name, equals: ['open'] }))).toEqual(['b']);
      });
    });

    describe('checkpoints', () => {
      it('stores, overwrites and deletes a named checkpoint', async () => {
        const name = `projection:${run}`;
        expect(await store.getCheckpoint(name)).toBeUndefined();
        await store.setCheckpoint(name, 5n);
        await store.setCheckpoint(`${name}:other`, 9n);
        expect(await store.getCheckpoint(name)).toBe(5n);
        await store.setCheckpoint(name, 2n ** 64n - 1n);
        expect(await store.getCheckpoint(name)).toBe(2n ** 64n - 1n);
        await store.deleteCheckpoint(name);
        expect(await store.getCheckpoint(name)).toBeUndefined();
        expect(await store.getCheckpoint(`${name}:other`)).toBe(9n);
        await expect(store.deleteCheckpoint(name)).resolves.toBeUndefined();
      });
    });

    describe('refusals', () => {
      it('refuses a query on an undeclared index', async () => {
        const things = await fresh();
        await expect(things.find({ index: 'nope' })).rejects.toBeInstanceOf(UnknownIndexError);
        await expect(things.find({ index: 'nope' })).rejects.toBeInstanceOf(InvalidParamError);
        await expect(things.count({ index: 'nope' })).rejects.toBeInstanceOf(UnknownIndexError);
        await expect(things.deleteWhere({ index: 'nope' })).rejects.toBeInstanceOf(UnknownIndexError);
      });

      it('refuses queries the index cannot answer', async () => {
        const things = await fresh();
        await expect(things.find({ index: BY_AT.name, equals: ['x', 'y'] })).rejects.toBeInstanceOf(InvalidQueryError);
        await expect(things.find({ index: BY_AT.name, equals: ['x'], range: { gt: 'a' } })).rejects.toBeInstanceOf(InvalidQueryError);
        await expect(things.find({ index: BY_AT.name, range: { gt: 'a', lt: 5 } })).rejects.toBeInstanceOf(InvalidQueryError);
        await expect(things.find({ index: BY_AT.name, range: { gt: 'a', gte: 'b' } })).rejects.toBeInstanceOf(InvalidQueryError);
        await expect(things.find({ index: BY_AT.name, range: { gte: null } })).rejects.toBeInstanceOf(InvalidQueryError);
        await expect(things.find({ index: BY_AT.name, limit: 0 })).rejects.toBeInstanceOf(InvalidQueryError);
        await expect(things.count({ index: BY_AMOUNT.name, equals: [Number.NaN] })).rejects.toBeInstanceOf(InvalidQueryError);
      });

      it('refuses a cursor that belongs to another query', async () => {
        const things = await fresh();
        await seed(things, [
          { id: 'a', status: 'open', at: '1' },
          { id: 'b', status: 'open', at: '2' },
        ]);
        const page = await things.find({ index: BY_STATUS_AT.name, equals: ['open'], limit: 1 });
        expect(page.nextCursor).not.toBeNull();
        await expect(things.find({ index: BY_STATUS_AT.name, equals: ['closed'], cursor: page.nextCursor! })).rejects.toBeInstanceOf(
          InvalidCursorError,
        );
        await expect(things.find({ index: BY_AT.name, cursor: page.nextCursor! })).rejects.toBeInstanceOf(InvalidCursorError);
        await expect(things.find({ index: BY_STATUS_AT.name, cursor: 'not a cursor!' })).rejects.toBeInstanceOf(InvalidCursorError);
        expect(ids(await things.find({ index: BY_STATUS_AT.name, equals: ['open'], cursor: page.nextCursor! }))).toEqual(['b']);
      });

      it('refuses an indexed field that is not a scalar, writing nothing', async () => {
        const things = await fresh();
        await expect(things.apply('a', 1n, () => ({ id: 'a', status: { nested: true } as never }))).rejects.toBeInstanceOf(
          InvalidDocumentError,
        );
        await expect(things.apply('a', 1n, () => ({ id: 'a', at: new Date(0) as never }))).rejects.toBeInstanceOf(InvalidDocumentError);
        expect(await things.getStored('a')).toBeUndefined();
        expect(await things.apply('a', 1n, () => ({ id: 'a', status: 'fine', free: { nested: [1] } }))).toBe(true);
      });

      it('refuses an evolve that changes the id or uses a reserved field', async () => {
        const things = await fresh();
        await expect(things.apply('a', 1n, () => ({ id: 'b' }))).rejects.toBeInstanceOf(InvalidDocumentError);
        await expect(things.apply('a', 1n, () => ({ id: 'a', _position: 1 }))).rejects.toBeInstanceOf(InvalidDocumentError);
        expect(await things.get('a')).toBeUndefined();
        expect(await things.get('b')).toBeUndefined();
      });

      it('passes on an error thrown by evolve and keeps the document as it was', async () => {
        const things = await fresh();
        await things.apply('a', 1n, () => ({ id: 'a', status: 'open' }));
        await expect(
          things.apply('a', 2n, () => {
            throw new Error('projection bug');
          }),
        ).rejects.toThrow('projection bug');
        expect(await things.getStored('a')).toEqual({ doc: { id: 'a', status: 'open' }, position: 1n });
        expect(await things.apply('a', 2n, (current) => ({ ...current!, status: 'closed' }))).toBe(true);
      });

      it('refuses bad collection names and index declarations', async () => {
        await expect(store.collection('_checkpoints')).rejects.toBeInstanceOf(InvalidParamError);
        await expect(store.collection(`${run}_bad`, [{ name: 'by_id', fields: ['id'] }])).rejects.toBeInstanceOf(InvalidParamError);
        await expect(store.collection(`${run}_bad`, [{ name: 'dotted', fields: ['a.b'] }])).rejects.toBeInstanceOf(InvalidParamError);
      });
    });

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
