import { afterAll, describe, expect, it } from '@jest/globals';
import { transformFileSync } from '@swc/core';
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

/**
 * Runs the adapter in a separate node process. Jest's transform does not reach
 * a child, so the few sources it needs are compiled with SWC into a temp dir
 * that resolves `lmdb` through this repository's node_modules.
 */
async function startChild(mode: 'write-forever' | 'race-even', dir: string) {
  const root = await tempDir();
  const platform = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  const sources = [
    'errors.ts',
    'read-store/read-store.port.ts',
    'read-store/errors.ts',
    'read-store/documents.ts',
    'read-store/query-plan.ts',
    'read-store/embedded/keys.ts',
    'read-store/embedded/embedded-read-store.ts',
  ];
  for (const source of sources) {
    const { code } = transformFileSync(path.join(platform, source), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'es6' },
    });
    const target = path.join(root, 'lib', source.replace(/\.ts$/, '.js'));
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, code);
  }
  await fs.writeFile(path.join(root, 'package.json'), '{"type":"module"}');
  await fs.symlink(path.resolve(platform, '../../../node_modules'), path.join(root, 'node_modules'), 'dir');
  await fs.writeFile(path.join(root, 'child.mjs'), CHILD);
  const child = spawn(process.execPath, [path.join(root, 'child.mjs'), mode, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  return child;
}

const CHILD = `
import { EmbeddedReadStore } from './lib/read-store/embedded/embedded-read-store.js';
const [mode, dir] = process.argv.slice(2);
const store = await EmbeddedReadStore.open(dir);
const indexes = [{ name: 'by_n', fields: ['n'] }];
if (mode === 'write-forever') {
  const durable = await store.collection('durable', indexes);
  for (let n = 1; ; n++) {
    await durable.apply('d' + n, BigInt(n), () => ({ id: 'd' + n, n }));
    process.stdout.write(n + '\\n');
  }
} else {
  const race = await store.collection('race', indexes);
  process.stdout.write('ready\\n');
  const accepted = [];
  for (let p = 2; p <= 2 * ${RACE_WRITES}; p += 2) {
    if (await race.apply('x', BigInt(p), (current) => ({ id: 'x', applied: [...(current?.applied ?? []), p] }))) accepted.push(p);
  }
  process.stdout.write(JSON.stringify(accepted) + '\\n');
  await store.close();
}
`;

async function exited(child: ReturnType<typeof spawn>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
}
