import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeDatasetStoreContract } from '../dataset-store.contract.js';
import { DatasetCorruptError } from '../dataset-store.port.js';
import { FileDatasetStore } from './file-dataset-store.js';

const register = fileURLToPath(new URL('../../testing/register-ts.mjs', import.meta.url));
const child = fileURLToPath(new URL('./testing/import-child.ts', import.meta.url));

const roots: string[] = [];
function freshRoot(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'file-dataset-store-'));
  roots.push(root);
  return root;
}
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const details = { sources: ['test'], attribution: [], stats: {} };

async function commitVersion(store: FileDatasetStore, dataset: string, records: unknown[]) {
  const writer = await store.begin(dataset);
  for (const record of records) await writer.write(record);
  return writer.commit(details);
}

async function readAll(store: FileDatasetStore, dataset: string): Promise<unknown[]> {
  const current = await store.current(dataset);
  const records: unknown[] = [];
  for await (const record of store.records(current!)) records.push(record);
  return records;
}

function runChild(root: string, dataset: string, records: number, stopAt: 'writing' | 'durable'): Promise<void> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['--import', register, child, root, dataset, String(records), stopAt], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (chunk) => (stderr += chunk));
    proc.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes(stopAt)) proc.kill('SIGKILL');
    });
    proc.on('close', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child ended with ${code}: ${stderr}`))));
  });
}

describeDatasetStoreContract('file', async () => new FileDatasetStore(freshRoot()));

describe('the file dataset store on disk', () => {
  it('writes the layout of docs/adr/0011: a folder per version with records and manifest, and the `current` pointer', async () => {
    const store = new FileDatasetStore(freshRoot());
    const writer = await store.begin('places/test');
    await writer.write({ n: 1 });
    await writer.attach('import-report.json', '{}\n');
    const version = await writer.commit(details);
    const folder = path.join(store.root, 'places/test');
    expect(version.directory).toBe(path.join(folder, version.version));
    expect(readFileSync(path.join(folder, 'current'), 'utf8')).toBe(`${version.version}\n`);
    expect(readdirSync(version.directory).sort()).toEqual(['import-report.json', 'manifest.json', 'records.ndjson']);
    expect(readFileSync(path.join(version.directory, 'records.ndjson'), 'utf8')).toBe('{"n":1}\n');
    expect(JSON.parse(readFileSync(path.join(version.directory, 'manifest.json'), 'utf8'))).toEqual(version.manifest);
  });

  it('reads a data folder written before the port (the same layout, written by hand here)', async () => {
    const root = freshRoot();
    const folder = path.join(root, 'roads', 'v20261101T120000000Z-abcdef');
    mkdirSync(folder, { recursive: true });
    const records = '{"id":1}\n{"id":2}\n';
    writeFileSync(path.join(folder, 'records.ndjson'), records);
    const sha256 = (await import('node:crypto')).createHash('sha256').update(records).digest('hex');
    const manifest = { format: 1, dataset: 'roads', version: 'v20261101T120000000Z-abcdef', records: 2, sha256, imported_at: '2026-11-01T12:00:00.000Z', sources: ['accra.osm.pbf'], attribution: ['© OpenStreetMap contributors'], stats: {} };
    writeFileSync(path.join(folder, 'manifest.json'), JSON.stringify(manifest));
    writeFileSync(path.join(root, 'roads', 'current'), 'v20261101T120000000Z-abcdef\n');
    const store = new FileDatasetStore(root);
    expect(await readAll(store, 'roads')).toEqual([{ id: 1 }, { id: 2 }]);
    expect(await store.list()).toEqual([{ dataset: 'roads', version: manifest.version, current: true, manifest }]);
  });

  it('refuses a version whose records no longer match its manifest', async () => {
    const store = new FileDatasetStore(freshRoot());
    const version = await commitVersion(store, 'places/test', [{ n: 1 }, { n: 2 }]);
    writeFileSync(path.join(version.directory, 'records.ndjson'), '{"n":1}\n');
    await expect(readAll(store, 'places/test')).rejects.toThrow(DatasetCorruptError);
  });

  it('lists every dataset on disk, single ones and those of a group, without being told their names', async () => {
    const store = new FileDatasetStore(freshRoot());
    await commitVersion(store, 'boundaries', [{ n: 1 }]);
    await commitVersion(store, 'places/osm', [{ n: 1 }]);
    await commitVersion(store, 'transit/accra', [{ n: 1 }]);
    await commitVersion(store, 'weather-stations', [{ n: 1 }]);
    expect((await store.list()).map((entry) => entry.dataset)).toEqual(['boundaries', 'places/osm', 'transit/accra', 'weather-stations']);
  });

  describe('an import killed with SIGKILL', () => {
    let store: FileDatasetStore;
    let liveVersion: string;
    const dataset = 'places/crash';

    beforeEach(async () => {
      store = new FileDatasetStore(freshRoot());
      liveVersion = (await commitVersion(store, dataset, [{ live: true }])).version;
    });

    async function expectPreviousVersionLive(): Promise<void> {
      expect(await store.currentVersion(dataset)).toBe(liveVersion);
      expect(await readAll(store, dataset)).toEqual([{ live: true }]);
    }

    it('while writing records leaves the previous version live, and the next import clears its leftovers', async () => {
      await runChild(store.root, dataset, 100_000, 'writing');
      await expectPreviousVersionLive();
      const folder = path.join(store.root, dataset);
      const staging = readdirSync(folder).filter((name) => name.startsWith('.staging-'));
      expect(staging).toHaveLength(1);
      expect(readFileSync(path.join(folder, staging[0], 'records.ndjson')).length).toBeGreaterThan(0);

      const next = await commitVersion(store, dataset, [{ next: true }]);
      expect(await store.currentVersion(dataset)).toBe(next.version);
      expect(readdirSync(folder).filter((name) => name.startsWith('.staging-'))).toEqual([]);
    }, 60_000);

    it('after the new version is durable but before the switch leaves the previous version live', async () => {
      await runChild(store.root, dataset, 10, 'durable');
      await expectPreviousVersionLive();
      // The complete but never switched-to version is on disk and simply not used.
      expect((await store.list()).filter((entry) => entry.dataset === dataset && !entry.current)).toHaveLength(1);
    }, 60_000);
  });
});
