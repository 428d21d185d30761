import { afterAll, describe, expect, it } from '@jest/globals';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { open } from 'lmdb';
import { describeReadStoreContract } from '../read-store.contract.js';
import { EmbeddedReadStore } from './embedded-read-store.js';
import { docKey } from './keys.js';
import { shapeDoc } from './testing/shape-doc.js';

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
  it('lets the loop take a turn (its I/O callbacks, then setImmediate) between the batches of a scan, as a round trip would', async () => {
    const store = await EmbeddedReadStore.open(await tempDir());
    try {
      const things = await store.collection('things', INDEXES);
      for (let n = 1; n <= 6; n++) await things.apply(`t${n}`, BigInt(n), () => ({ id: `t${n}`, n }));
      const log: string[] = [];
      for await (const batch of things.scan({ index: 'by_n' }, 2)) {
        log.push(batch.map((doc) => doc.id).join(','));
        // Runs before the next batch is read only if the scan waits for the loop: a find alone resolves in microtasks.
        setImmediate(() => log.push('turn'));
      }
      expect(log).toEqual(['t1,t2', 'turn', 't3,t4', 'turn', 't5,t6']);

      // getMany likewise waits for the loop before it reads.
      const order: string[] = [];
      setImmediate(() => order.push('turn'));
      await things.getMany(['t1', 't2']).then(() => order.push('read'));
      expect(order).toEqual(['turn', 'read']);
    } finally {
      await store.close();
    }
  });

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

  it('indexes a write under an index another handle declared after this one read the declarations', async () => {
    const dir = await tempDir();
    const first = await EmbeddedReadStore.open(dir);
    const second = await EmbeddedReadStore.open(dir);
    try {
      const things = await first.collection('things', INDEXES);
      // This handle has read (and kept) the declarations once.
      await things.apply('t1', 1n, () => ({ id: 't1', n: 1, colour: 'red' }));
      const declaredLater = await second.collection('things', [{ name: 'by_colour', fields: ['colour'] }]);
      await things.apply('t2', 2n, () => ({ id: 't2', n: 2, colour: 'red' }));
      await things.apply('t1', 3n, () => ({ id: 't1', n: 1, colour: 'blue' }));
      expect((await declaredLater.find({ index: 'by_colour', equals: ['red'] })).items.map(({ id }) => id)).toEqual(['t2']);
      expect((await declaredLater.find({ index: 'by_colour', equals: ['blue'] })).items.map(({ id }) => id)).toEqual(['t1']);
    } finally {
      await first.close();
      await second.close();
    }
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

describe('EmbeddedReadStore shared structures (ADR 0047)', () => {
  it('reads documents stored with inline record definitions, as before shared structures, beside new ones', async () => {
    const dir = await tempDir();
    // What the store wrote before: the docs database without shared structures.
    const before = open({ path: dir, noSubdir: false, maxDbs: 8 });
    const docs = before.openDB<unknown, Buffer>({ name: 'docs', keyEncoding: 'binary' });
    for (let k = 0; k < 40; k++) await docs.put(docKey('legacy', `c${k}`), { p: String(k + 1), d: shapeDoc('c', k) });
    await before.close();

    const store = await EmbeddedReadStore.open(dir);
    const legacy = await store.collection('legacy');
    for (let k = 40; k < 80; k++) expect(await legacy.apply(`c${k}`, BigInt(k + 1), () => shapeDoc('c', k))).toBe(true);
    // The old records interleaved with records of the same and of new shapes, read in both orders.
    for (const k of [0, 40, 1, 41, 39, 79, 5, 5, 45]) expect(await legacy.getStored(`c${k}`)).toEqual({ doc: shapeDoc('c', k), position: BigInt(k + 1) });
    expect(await legacy.apply('c3', 100n, (current) => ({ ...current!, n: 1000 }))).toBe(true);
    expect(await legacy.get('c3')).toEqual({ ...shapeDoc('c', 3), n: 1000 });
    await store.close();
  });

  it('reads what another process wrote when both add shapes at the same time', async () => {
    const dir = await tempDir();
    const store = await EmbeddedReadStore.open(dir);
    const shapes = await store.collection('shapes', INDEXES);
    const child = await startChild('shapes', dir);
    const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
    expect((await lines.next()).value).toBe('ready');
    // Odd positions here, even ones in the child: each process adds its own 600 shapes while the other does
    // (more than the 512 shared, so the last ones are written inline).
    for (let k = 0; k < SHAPES; k++) await shapes.apply(`p${k}`, BigInt(2 * k + 1), () => shapeDoc('p', k));
    expect((await lines.next()).value).toBe('done');
    await exited(child);
    expect(child.exitCode).toBe(0);

    const check = async (reader: EmbeddedReadStore) => {
      const collection = await reader.collection('shapes');
      for (let k = 0; k < SHAPES; k++) {
        expect(await collection.get(`p${k}`)).toEqual(shapeDoc('p', k));
        expect(await collection.get(`c${k}`)).toEqual(shapeDoc('c', k));
      }
      expect(await collection.count({ index: 'by_n' })).toBe(2 * SHAPES);
    };
    await check(store);
    await store.close();
    // Both processes saved shapes into the one shared list, up to its limit.
    const raw = open({ path: dir, noSubdir: false, maxDbs: 8 });
    const structures = raw.openDB<unknown, Buffer>({ name: 'docs', keyEncoding: 'binary' }).get(Buffer.from([0xff, 0x73])) as string[][];
    await raw.close();
    expect(structures).toHaveLength(512);
    expect(structures.some((fields) => fields.includes('p1_a'))).toBe(true);
    expect(structures.some((fields) => fields.includes('c1_a'))).toBe(true);
    // A process that wrote none of them.
    const fresh = await EmbeddedReadStore.open(dir);
    await check(fresh);
    await fresh.close();
  });
});

const SHAPES = 600;
const RACE_WRITES = 100;

/** Runs the real adapter in a separate node process through the repository's shared TypeScript loader. */
function startChild(mode: 'write-forever' | 'race-even' | 'shapes', dir: string) {
  const register = fileURLToPath(new URL('../../testing/register-ts.mjs', import.meta.url));
  const child = fileURLToPath(new URL('./testing/read-store-child.ts', import.meta.url));
  return spawn(process.execPath, ['--import', register, child, mode, dir, String(mode === 'shapes' ? SHAPES : RACE_WRITES)], { stdio: ['ignore', 'pipe', 'inherit'] });
}

async function exited(child: ReturnType<typeof spawn>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
}
