import { afterAll, describe, expect, it } from '@jest/globals';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { open, type RootDatabase } from 'lmdb';
import { TRANSACTION_TURN_MS, TransactionTurns, WRITTEN_BY_SEVERAL_PROCESSES } from './shared-lmdb.js';

const dirs: string[] = [];
const envs: RootDatabase[] = [];
async function environment(): Promise<RootDatabase> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'turns-'));
  dirs.push(dir);
  const env = open({ path: dir, ...WRITTEN_BY_SEVERAL_PROCESSES });
  envs.push(env);
  return env;
}
afterAll(async () => {
  await Promise.all(envs.map((env) => env.close()));
  await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

/** Keeps the main thread busy for `ms`, as a heavy callback would. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** Numbers the batches the callbacks ran in: a batch's callbacks run in one synchronous pass. */
function batchCounter(): () => number {
  let batch = 0;
  let open = false;
  return () => {
    if (!open) {
      open = true;
      batch++;
      queueMicrotask(() => {
        open = false;
      });
    }
    return batch;
  };
}

describe('TransactionTurns', () => {
  it('spreads one turn of queued callbacks over batches, in call order, each committed with its result', async () => {
    const env = await environment();
    const db = env.openDB<number, number>({ name: 'n' });
    const turns = new TransactionTurns(env);
    const batchOf = batchCounter();
    const ran: Array<{ i: number; batch: number }> = [];
    const queued = Array.from({ length: 40 }, (_, i) =>
      turns.run(() => {
        ran.push({ i, batch: batchOf() });
        busy(TRANSACTION_TURN_MS / 4);
        db.putSync(i, i * 10);
        return i;
      }),
    );
    // Nothing ran yet: all 40 wait (what the stores report to the metrics gauge).
    expect(turns.waiting).toBe(40);
    const results = await Promise.all(queued);
    expect(results).toEqual(Array.from({ length: 40 }, (_, i) => i));
    expect(ran.map(({ i }) => i)).toEqual(results);
    // Each callback takes a quarter of the budget: a batch holds a handful, never all 40.
    const perBatch = new Map<number, number>();
    for (const { batch } of ran) perBatch.set(batch, (perBatch.get(batch) ?? 0) + 1);
    expect(perBatch.size).toBeGreaterThan(4);
    expect(Math.max(...perBatch.values())).toBeLessThan(10);
    // Committed when each promise settled.
    expect(Array.from({ length: 40 }, (_, i) => db.get(i))).toEqual(results.map((i) => i * 10));
    expect(turns.waiting).toBe(0);
  });

  it('keeps call order for callbacks queued while earlier ones wait for a later batch', async () => {
    const env = await environment();
    const turns = new TransactionTurns(env);
    const order: string[] = [];
    const first = Array.from({ length: 20 }, (_, i) =>
      turns.run(() => {
        order.push(`a${i}`);
        busy(TRANSACTION_TURN_MS / 2);
      }),
    );
    // Queued from another turn, while the first ones are still spread over batches.
    await new Promise((resolve) => setImmediate(resolve));
    const second = Array.from({ length: 5 }, (_, i) => turns.run(() => void order.push(`b${i}`)));
    await Promise.all([...first, ...second]);
    expect(order).toEqual([...Array.from({ length: 20 }, (_, i) => `a${i}`), ...Array.from({ length: 5 }, (_, i) => `b${i}`)]);
  });

  it('rejects a throwing callback with its error and commits the others', async () => {
    const env = await environment();
    const db = env.openDB<string, string>({ name: 's' });
    const turns = new TransactionTurns(env);
    const settled = await Promise.allSettled([
      turns.run(() => db.putSync('a', 'kept')),
      turns.run(() => {
        throw new Error('refused');
      }),
      turns.run(() => db.putSync('c', 'kept')),
    ]);
    expect(settled.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason).toEqual(new Error('refused'));
    expect([db.get('a'), db.get('c')]).toEqual(['kept', 'kept']);
  });

  it('runs a callback longer than the budget on its own, and the queue still moves', async () => {
    const env = await environment();
    const turns = new TransactionTurns(env);
    const batchOf = batchCounter();
    const batches: number[] = [];
    await Promise.all(
      Array.from({ length: 3 }, () =>
        turns.run(() => {
          batches.push(batchOf());
          busy(TRANSACTION_TURN_MS * 2);
        }),
      ),
    );
    expect(new Set(batches).size).toBe(3);
  });
});
