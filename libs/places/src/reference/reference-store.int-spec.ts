import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importGeoNames } from '../importers/importers.js';
import { DatasetCorruptError, ReferenceStore } from './reference-store.js';

const GEONAMES = fileURLToPath(new URL('../__fixtures__/geonames-sample.txt', import.meta.url));
const register = fileURLToPath(new URL('../../../platform/src/testing/register-ts.mjs', import.meta.url));
const child = fileURLToPath(new URL('./testing/import-child.ts', import.meta.url));

const freshStore = () => new ReferenceStore(mkdtempSync(path.join(tmpdir(), 'places-store-')));
const details = { sources: ['test'], attribution: [], stats: {} };

async function commitVersion(store: ReferenceStore, dataset: string, records: unknown[]) {
  const writer = await store.begin(dataset);
  for (const record of records) await writer.write(record);
  return writer.commit(details);
}

async function readAll(store: ReferenceStore, dataset: string): Promise<unknown[]> {
  const current = await store.current(dataset);
  const records: unknown[] = [];
  for await (const record of store.records(current!)) records.push(record);
  return records;
}

/** A bigger GeoNames file (the fixture repeated with fresh ids), so an import is still running when it is killed. */
function bigGeoNames(dir: string): string {
  const rows = readFileSync(GEONAMES, 'utf8').split('\n').filter((line) => /^\d+\t/.test(line));
  const lines: string[] = [];
  for (let copy = 0; copy < 4000; copy++) for (const row of rows) lines.push(row.replace(/^\d+/, String(10_000_000 + lines.length)));
  const file = path.join(dir, 'big.txt');
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

function runChild(root: string, file: string, stopAt: 'writing' | 'durable'): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', register, child, root, file, stopAt], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (chunk) => (stderr += chunk));
    proc.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes(stopAt)) proc.kill('SIGKILL');
    });
    proc.on('close', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child ended with ${code}: ${stderr}`))));
  });
}

describe('reference datasets on disk', () => {
  it('makes a version live only at commit, and keeps the current and the previous one', async () => {
    const store = freshStore();
    const writer = await store.begin('places/test');
    await writer.write({ n: 1 });
    expect(await store.current('places/test')).toBeNull();
    const first = await writer.commit(details);
    expect(await readAll(store, 'places/test')).toEqual([{ n: 1 }]);
    expect(first.manifest).toMatchObject({ dataset: 'places/test', records: 1, sources: ['test'] });

    await commitVersion(store, 'places/test', [{ n: 2 }]);
    const third = await commitVersion(store, 'places/test', [{ n: 3 }, { n: 4 }]);
    expect(await readAll(store, 'places/test')).toEqual([{ n: 3 }, { n: 4 }]);
    const versions = (await store.list()).filter((entry) => entry.dataset === 'places/test');
    expect(versions).toHaveLength(2);
    expect(versions.find((entry) => entry.current)?.version).toBe(third.version);
    expect(versions.map((entry) => entry.version)).not.toContain(first.version);
  });

  it('leaves the previous version live when an import fails before the switch', async () => {
    const store = freshStore();
    const live = await commitVersion(store, 'places/test', [{ n: 1 }]);
    const writer = await store.begin('places/test');
    await writer.write({ n: 2 });
    await expect(writer.commit(details, async () => Promise.reject(new Error('power cut')))).rejects.toThrow('power cut');
    expect(await store.currentVersion('places/test')).toBe(live.version);
    expect(await readAll(store, 'places/test')).toEqual([{ n: 1 }]);
  });

  it('refuses a version whose records no longer match its manifest', async () => {
    const store = freshStore();
    const version = await commitVersion(store, 'places/test', [{ n: 1 }, { n: 2 }]);
    writeFileSync(path.join(version.directory, 'records.ndjson'), '{"n":1}\n');
    await expect(readAll(store, 'places/test')).rejects.toThrow(DatasetCorruptError);
  });

  it('refuses a dataset name that could leave the reference folder', async () => {
    await expect(freshStore().begin('../escape')).rejects.toThrow('invalid dataset name');
  });

  describe('an import killed with SIGKILL', () => {
    let store: ReferenceStore;
    let file: string;
    let liveVersion: string;

    beforeEach(async () => {
      store = freshStore();
      liveVersion = (await importGeoNames(store, GEONAMES)).version.version;
      file = bigGeoNames(store.root);
    });

    async function expectPreviousVersionLive(): Promise<void> {
      expect(await store.currentVersion('places/geonames')).toBe(liveVersion);
      const names = ((await readAll(store, 'places/geonames')) as Array<{ name: string }>).map((place) => place.name);
      expect(names).toContain('Kumasi');
      expect(names).toHaveLength(16);
    }

    it('while writing records leaves the previous version live, and the next import clears its leftovers', async () => {
      await runChild(store.root, file, 'writing');
      await expectPreviousVersionLive();
      const folder = path.join(store.root, 'places/geonames');
      expect(readdirSync(folder).filter((name) => name.startsWith('.staging-'))).toHaveLength(1);

      const next = await importGeoNames(store, GEONAMES);
      expect(await store.currentVersion('places/geonames')).toBe(next.version.version);
      expect(readdirSync(folder).filter((name) => name.startsWith('.staging-'))).toEqual([]);
    }, 60_000);

    it('after the new version is durable but before the switch leaves the previous version live', async () => {
      await runChild(store.root, file, 'durable');
      await expectPreviousVersionLive();
      // The complete but never switched-to version is on disk and simply not used.
      expect((await store.list()).filter((entry) => entry.dataset === 'places/geonames' && !entry.current)).toHaveLength(1);
    }, 60_000);
  });
});
