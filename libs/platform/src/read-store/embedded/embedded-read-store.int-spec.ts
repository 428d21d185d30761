import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describeReadStoreContract } from '../read-store.contract.js';
import { EmbeddedReadStore } from './embedded-read-store.js';

const dirs: string[] = [];
async function tempDir(): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'read-store-'));
  dirs.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(dirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

describeReadStoreContract('embedded (LMDB)', async () => EmbeddedReadStore.open(await tempDir()));

const INDEXES = [{ name: 'by_n', fields: ['n'] }];

describe('EmbeddedReadStore on disk', () => {
  it('finds documents, tombstones, indexes and checkpoints again after a reopen', async () => {
    const dir = await tempDir();
    const first = await EmbeddedReadStore.open(dir);
    const things = await first.collection('things', INDEXES);
    for (let n = 1; n <= 20; n++) await things.apply(`t${n}`, BigInt(n), () => ({ id: `t${n}`, n }));
    await things.apply('t5', 30n, () => null);
    await first.setCheckpoint('projection:things', 30n);
    await first.close();

    const second = await EmbeddedReadStore.open(dir);
    // Declared without indexes: the ones stored with the collection apply.
    const again = await second.collection('things');
    const page = await again.find({ index: 'by_n', range: { gte: 4, lte: 6 } });
    expect(page.items).toEqual([
      { id: 't4', n: 4 },
      { id: 't6', n: 6 },
    ]);
    expect(await again.count({ index: 'by_n' })).toBe(19);
    expect(await again.getStored('t20')).toEqual({ doc: { id: 't20', n: 20 }, position: 20n });
    expect(await again.apply('t5', 29n, () => ({ id: 't5', n: 5 }))).toBe(false);
    expect(await second.getCheckpoint('projection:things')).toBe(30n);
    await second.close();
  });

  it('keeps every write whose apply resolved when the process is killed with SIGKILL', async () => {
    const dir = await tempDir();
    const child = await startChild('write-forever', dir);
    const lines = createInterface({ input: child.stdout! });
    let acknowledged = 0;
    for await (const line of lines) {
      acknowledged = Number(line);
      if (acknowledged >= 25) child.kill('SIGKILL');
    }
    await exited(child);
    expect(child.signalCode).toBe('SIGKILL');

    const store = await EmbeddedReadStore.open(dir);
    const durable = await store.collection('durable');
    for (let n = 1; n <= acknowledged; n++) {
      expect(await durable.getStored(`d${n}`)).toEqual({ doc: { id: `d${n}`, n }, position: BigInt(n) });
    }
    expect(await durable.count({ index: 'by_n', range: { lte: acknowledged } })).toBe(acknowledged);
    await store.close();
  });

  it('keeps apply atomic when two processes write the same document', async () => {
    const dir = await tempDir();
    const store = await EmbeddedReadStore.open(dir);
    const shared = await store.collection<{ id: string; applied: number[] }>('race', INDEXES);
    // The child writes the even positions, this process the odd ones, each in
    // ascending order and both at the same time, so writes interleave.
    const child = await startChild('race-even', dir);
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    expect((await lines.next()).value).toBe('ready');
    const mine: number[] = [];
    for (let p = 1; p < 2 * RACE_WRITES; p += 2) {
      if (await shared.apply('x', BigInt(p), (current) => ({ id: 'x', applied: [...(current?.applied ?? []), p] }))) mine.push(p);
    }
    const theirs: number[] = JSON.parse((await lines.next()).value as string);
    await exited(child);

    const accepted = [...mine, ...theirs].sort((a, b) => a - b);
    const stored = await shared.getStored('x');
    // Every accepted write from either process is in the document, in position order.
    expect(stored?.doc.applied).toEqual(accepted);
    expect(stored?.position).toBe(BigInt(accepted.at(-1)!));
    await store.close();
  });
});

const RACE_WRITES = 100;

/** Runs the real adapter in a separate node process through the repository's shared TypeScript loader. */
function startChild(mode: 'write-forever' | 'race-even', dir: string) {
  const register = fileURLToPath(new URL('../../testing/register-ts.mjs', import.meta.url));
  const child = fileURLToPath(new URL('./testing/read-store-child.ts', import.meta.url));
  return spawn(process.execPath, ['--import', register, child, mode, dir, String(RACE_WRITES)], { stdio: ['ignore', 'pipe', 'inherit'] });
}

async function exited(child: ReturnType<typeof spawn>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
}
