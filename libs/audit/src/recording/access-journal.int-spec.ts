import { mkdtempSync, write } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AccessJournal, type JournalRecord, type PositionalWrite } from './access-journal.js';
import { accessEntry } from './testing/access-entry.js';

/**
 * Two writes in flight (ADR 0070): whatever order the disk returns them in,
 * the journal answers them in write order, and a failed write takes the
 * writes after it down with it, their bytes zeroed, so a recovery never reads
 * a record that was not answered.
 */
describe('AccessJournal with writes in flight at once', () => {
  /** Holds every write until the test lets it go: to disk and answered, or failed without touching the disk. */
  function heldWrites() {
    const held: Array<{ release: () => void; fail: (error: Error) => void }> = [];
    const writer: PositionalWrite = (fd, buffer, offset, length, position, callback) => {
      held.push({
        release: () => write(fd, buffer, offset, length, position, callback),
        fail: (error) => callback(Object.assign(error, { code: 'EIO' }), 0),
      });
    };
    return { held, writer };
  }
  const records = (from: number, count: number): JournalRecord[] => Array.from({ length: count }, (_, index) => ({ n: from + index, entry: accessEntry('acct_1', `r${from + index}`) }));
  const settled = (journal: AccessJournal, batch: JournalRecord[], order: string[], name: string) =>
    new Promise<Error | null>((resolve) =>
      journal.append(batch, (error) => {
        order.push(name);
        resolve(error);
      }),
    );

  it('answers the second write only after the first, even when the disk returns it first', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'journal-order-'));
    const { held, writer } = heldWrites();
    const { journal } = await AccessJournal.open(dir, 64 * 1024, { write: writer });
    const order: string[] = [];
    const first = settled(journal, records(0, 2), order, 'first');
    const second = settled(journal, records(2, 3), order, 'second');
    expect(held).toHaveLength(2);
    held[1].release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // The second is on disk, but the first is not yet: not answered.
    expect(order).toEqual([]);
    held[0].release();
    await expect(Promise.all([first, second])).resolves.toEqual([null, null]);
    expect(order).toEqual(['first', 'second']);
    await journal.close();
    const reopened = await AccessJournal.open(dir, 64 * 1024, { prepare: false });
    expect(reopened.recovered.map((record) => record.n)).toEqual([0, 1, 2, 3, 4]);
    await reopened.journal.close();
  });

  it('fails the writes after a failed one too, zeroes them, and writes the next where the failed one began', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'journal-fail-'));
    const { held, writer } = heldWrites();
    const { journal } = await AccessJournal.open(dir, 64 * 1024, { write: writer });
    const order: string[] = [];
    const kept = settled(journal, records(0, 1), order, 'kept');
    held[0].release();
    await expect(kept).resolves.toBeNull();
    const failing = settled(journal, records(1, 2), order, 'failing');
    const after = settled(journal, records(3, 2), order, 'after');
    // The later write reaches the disk; the earlier one fails.
    held[2].release();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(order).toEqual(['kept']);
    held[1].fail(new Error('disk said no'));
    const [failed, afterFailed] = await Promise.all([failing, after]);
    expect(failed?.message).toMatch(/disk said no/);
    expect(afterFailed?.message).toMatch(/disk said no/);
    expect(order).toEqual(['kept', 'failing', 'after']);
    // The next write goes where the failed one began, over the zeroed bytes of both.
    const next = settled(journal, records(5, 1), order, 'next');
    held[3].release();
    await expect(next).resolves.toBeNull();
    await journal.close();
    const reopened = await AccessJournal.open(dir, 64 * 1024, { prepare: false });
    expect(reopened.recovered.map((record) => record.n)).toEqual([0, 5]);
    await reopened.journal.close();
  });

  it('moves to the next segment only once the writes in flight are answered', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'journal-rotate-'));
    const { held, writer } = heldWrites();
    // A segment that holds one of these batches but not two.
    const batchBytes = Buffer.byteLength(records(0, 20).map((record) => `${JSON.stringify(record)}\n`).join(''));
    const { journal } = await AccessJournal.open(dir, Math.ceil(batchBytes * 1.5), { write: writer });
    const order: string[] = [];
    const first = settled(journal, records(0, 20), order, 'first');
    const second = settled(journal, records(20, 20), order, 'second');
    // The second needs the next segment: it waits, unwritten, for the first to be answered.
    expect(held).toHaveLength(1);
    held[0].release();
    await expect(first).resolves.toBeNull();
    for (let waited = 0; held.length < 2 && waited < 100; waited++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(held).toHaveLength(2);
    held[1].release();
    await expect(second).resolves.toBeNull();
    expect(order).toEqual(['first', 'second']);
    await journal.close();
    const reopened = await AccessJournal.open(dir, 64 * 1024, { prepare: false });
    expect(reopened.recovered.map((record) => record.n)).toEqual(Array.from({ length: 40 }, (_, index) => index));
    await reopened.journal.close();
  });
});
