import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ATTRIBUTION, importGeoNames, importOsm, type Place } from '../../places/src/index.js';
import { FileDatasetStore } from '../../platform/src/index.js';
import { buildStarterPack } from './public/build-pack.js';
import { importStarterData, liveKinds, StarterAbortedError } from './first-start.js';
import { appRoot, parseRecipe, StarterPackError, type Recipe, type RecipeSource } from './public/pack.js';
import { DECLARED_DATASETS, declaredFor } from './testing/declared-datasets.js';

const libs = path.join(appRoot(), 'libs');
const temp = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));
const register = fileURLToPath(new URL('../../platform/src/testing/register-ts.mjs', import.meta.url));
const child = fileURLToPath(new URL('./testing/starter-child.ts', import.meta.url));
const fixture = (name: string) => path.join(libs, 'places/src/__fixtures__', name);

const osm = { licence: 'ODbL 1.0', licence_url: 'https://opendatacommons.org/licenses/odbl/1-0/', attribution: '© OpenStreetMap contributors', what: 'fixture', origin: 'fixture' };
const source = (role: RecipeSource['role'], file: string, overrides: Partial<RecipeSource> = {}): RecipeSource => ({ role, file, ...osm, ...overrides });
const recipe: Recipe = {
  name: 'fixture',
  title: 'Fixture',
  covers: 'A few places of Accra.',
  sources: [
    source('boundaries', 'places/src/__fixtures__/boundaries-regions.geojson', { licence: 'OCHA COD terms of use', attribution: 'Boundaries: OCHA' }),
    source('boundaries', 'places/src/__fixtures__/boundaries-districts.geojson', { licence: 'OCHA COD terms of use', attribution: 'Boundaries: OCHA' }),
    source('geonames', 'places/src/__fixtures__/geonames-sample.txt', { licence: 'CC BY 4.0', attribution: ATTRIBUTION.geonames }),
    source('landmarks-osm-sqlite', 'starter/src/build/__fixtures__/pois.sqlite'),
    source('landmarks-osm', 'places/src/__fixtures__/osm-sample.osm'),
    source('roads-osm', 'places/src/__fixtures__/osm-sample.osm'),
    source('gtfs', 'starter/src/build/__fixtures__/gtfs.zip'),
  ],
};

let packDir: string;
beforeAll(async () => {
  packDir = temp('starter-pack-');
  const text = JSON.stringify(recipe);
  await buildStarterPack({ recipe: parseRecipe(text, 'recipe'), recipeText: text, sourcesDir: libs, outDir: packDir });
});

const silent = { info: () => undefined };
const freshStore = () => new FileDatasetStore(temp('starter-store-'));

async function pointers(store: FileDatasetStore): Promise<Record<string, string | null>> {
  const result: Record<string, string | null> = {};
  for (const dataset of ['boundaries', 'places/geonames', 'places/osm', 'places/osm-accra']) result[dataset] = await store.currentVersion(dataset);
  return result;
}

async function placesOf(store: FileDatasetStore, dataset: string): Promise<Place[]> {
  const list: Place[] = [];
  for await (const place of store.records<Place>((await store.current(dataset))!)) list.push(place);
  return list;
}

/** Folders an import leaves behind only when it dies: staging folders, the starter lock. */
function leftovers(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      if (name.startsWith('.staging-') || name === '.starter-import.lock') found.push(path.relative(root, path.join(dir, name)));
      else if (!name.startsWith('v') && statSync(path.join(dir, name)).isDirectory()) walk(path.join(dir, name));
    }
  };
  walk(root);
  return found;
}

describe('starter data on first start', () => {
  it('imports boundaries, then the gazetteer and the landmarks with their region and district, and logs each with its count', async () => {
    const store = freshStore();
    const lines: Array<Record<string, unknown>> = [];
    const report = await importStarterData(store, packDir, { ...declaredFor(store), log: { info: (fields) => lines.push(fields) } });
    expect(report.imported.map((entry) => [entry.kind, entry.dataset, entry.records])).toEqual([
      ['boundaries', 'boundaries', 5],
      ['places', 'places/geonames', 16],
      ['landmarks', 'places/osm', 6],
      ['roads', 'roads', 1],
      ['transit', 'transit/gtfs', 6],
    ]);
    expect(report.skipped).toEqual([]);
    expect(lines.map((line) => [line.msg, line.kind, line.records])).toEqual([
      ['starter dataset imported', 'boundaries', 5],
      ['starter dataset imported', 'places', 16],
      ['starter dataset imported', 'landmarks', 6],
      ['starter dataset imported', 'roads', 1],
      ['starter dataset imported', 'transit', 6],
    ]);
    expect((await store.current('boundaries'))!.manifest.attribution).toEqual(['Boundaries: OCHA']);
    expect((await store.current('places/osm'))!.manifest.attribution).toEqual([ATTRIBUTION.osm]);
    expect((await placesOf(store, 'places/geonames')).find((place) => place.name === 'Kumasi')).toMatchObject({ region: 'Ashanti', district: 'Kumasi Metropolitan' });
    expect((await placesOf(store, 'places/osm')).find((place) => place.name === 'Makola Market')).toMatchObject({ region: 'Greater Accra', district: 'Accra Metropolis' });
    expect([...(await liveKinds(store, DECLARED_DATASETS)).keys()].sort()).toEqual(['boundaries', 'landmarks', 'places', 'roads', 'transit']);
    expect(leftovers(store.root)).toEqual([]);
  });

  it('imports nothing on a restart', async () => {
    const store = freshStore();
    await importStarterData(store, packDir, { ...declaredFor(store), log: silent });
    const before = await pointers(store);
    const lines: unknown[] = [];
    const report = await importStarterData(store, packDir, { ...declaredFor(store), log: { info: (fields) => lines.push(fields) } });
    expect(report.imported).toEqual([]);
    expect(report.skipped.map((entry) => entry.reason)).toEqual(['live', 'live', 'live', 'live', 'live']);
    expect(lines).toEqual([]);
    expect(await pointers(store)).toEqual(before);
  });

  it('never replaces a live dataset: only the kinds without one are imported, and the operator’s place sets keep their version', async () => {
    const store = freshStore();
    const own = await importGeoNames(store, fixture('geonames-sample.txt'), { dataset: 'mine' });
    const accra = await importOsm(store, fixture('osm-sample.osm'), { dataset: 'osm-accra' });
    const report = await importStarterData(store, packDir, { ...declaredFor(store), log: silent });
    expect(report.imported.map((entry) => entry.kind)).toEqual(['boundaries', 'roads', 'transit']);
    expect(await store.currentVersion('places/mine')).toBe(own.version.version);
    expect(await store.currentVersion('places/osm-accra')).toBe(accra.version.version);
    expect(await store.currentVersion('places/geonames')).toBeNull();
    expect(await store.currentVersion('places/osm')).toBeNull();

    const landmarksOnly = freshStore();
    await importGeoNames(landmarksOnly, fixture('geonames-sample.txt'));
    expect((await importStarterData(landmarksOnly, packDir, { ...declaredFor(landmarksOnly), log: silent })).imported.map((entry) => entry.kind)).toEqual(['boundaries', 'landmarks', 'roads', 'transit']);
  });

  it('refuses a pack whose files do not match its manifest, importing nothing', async () => {
    const broken = temp('starter-broken-');
    cpSync(packDir, broken, { recursive: true });
    const file = path.join(broken, 'landmarks/osm-pois.osm.gz');
    const bytes = readFileSync(file);
    bytes[bytes.length - 9] ^= 0xff;
    writeFileSync(file, bytes);
    const store = freshStore();
    await expect(importStarterData(store, broken, { ...declaredFor(store), log: silent })).rejects.toThrow(/landmarks\/osm-pois.osm.gz: checksum mismatch/);
    expect(await pointers(store)).toEqual({ boundaries: null, 'places/geonames': null, 'places/osm': null, 'places/osm-accra': null });
    await expect(importStarterData(store, temp('starter-none-'), { ...declaredFor(store), log: silent })).rejects.toThrow(StarterPackError);
  });

  it('completes after a crash in the middle: the kinds already live stay as they are, the rest is imported, nothing is left behind', async () => {
    const store = freshStore();
    await new Promise<void>((resolve, reject) => {
      const proc = spawn(process.execPath, ['--import', register, child, store.root, packDir], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      proc.stderr.on('data', (chunk) => (stderr += chunk));
      proc.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('writing')) proc.kill('SIGKILL');
      });
      proc.on('close', (code, signal) => (signal === 'SIGKILL' ? resolve() : reject(new Error(`child ended with ${code}: ${stderr}`))));
    });
    const afterCrash = await pointers(store);
    expect(afterCrash['boundaries']).not.toBeNull();
    expect(afterCrash['places/geonames']).not.toBeNull();
    expect(afterCrash['places/osm']).toBeNull();
    expect(leftovers(store.root).sort()).toEqual(['.starter-import.lock', expect.stringMatching(/^places\/osm\/\.staging-/)]);

    // The dead child's lock is taken over because its pid is gone (same host): the stale time is a day, so it cannot be that.
    const report = await importStarterData(store, packDir, { ...declaredFor(store), log: silent, staleLockMs: 86_400_000 });
    expect(report.imported.map((entry) => entry.kind)).toEqual(['landmarks', 'roads', 'transit']);
    const after = await pointers(store);
    expect(after['boundaries']).toBe(afterCrash['boundaries']);
    expect(after['places/geonames']).toBe(afterCrash['places/geonames']);
    expect(leftovers(store.root)).toEqual([]);
  }, 30_000);

  it('stops at shutdown without leaving a half-written version, and the next start finishes', async () => {
    const store = freshStore();
    const abort = new AbortController();
    await expect(
      importStarterData(store, packDir, { ...declaredFor(store),
        log: silent,
        signal: abort.signal,
        // After the first of the two boundary files: the next progress report stops the import.
        onProgress: (kind) => {
          if (kind === 'boundaries') abort.abort();
        },
      }),
    ).rejects.toThrow(StarterAbortedError);
    expect(await pointers(store)).toEqual({ boundaries: null, 'places/geonames': null, 'places/osm': null, 'places/osm-accra': null });
    expect(leftovers(store.root)).toEqual([]);
    expect((await importStarterData(store, packDir, { ...declaredFor(store), log: silent })).imported.map((entry) => entry.kind)).toEqual(['boundaries', 'places', 'landmarks', 'roads', 'transit']);
  });

  it('lets one of two processes starting together import; the other waits and finds the data live', async () => {
    const store = freshStore();
    const lines: Array<Record<string, unknown>> = [];
    const [a, b] = await Promise.all([importStarterData(store, packDir, { ...declaredFor(store), log: silent }), importStarterData(store, packDir, { ...declaredFor(store), log: { info: (fields) => lines.push(fields) } })]);
    expect([a.imported.length, b.imported.length].sort()).toEqual([0, 5]);
    for (const dataset of ['boundaries', 'places/geonames', 'places/osm']) {
      expect(readdirSync(path.join(store.root, dataset)).filter((name) => name.startsWith('v'))).toHaveLength(1);
    }
  });

  it('takes over a lock left by a process of another host once it is stale', async () => {
    const store = freshStore();
    const lock = path.join(store.root, '.starter-import.lock');
    mkdirSync(lock, { recursive: true });
    writeFileSync(path.join(lock, 'owner'), `not-${hostname()} 1\n`);
    const lines: Array<Record<string, unknown>> = [];
    const report = await importStarterData(store, packDir, { ...declaredFor(store), log: { info: (fields) => lines.push(fields) }, staleLockMs: 600 });
    expect(report.imported).toHaveLength(5);
    expect(lines[0]).toMatchObject({ msg: 'starter data: another process is importing it; waiting' });
    expect(existsSync(lock)).toBe(false);
  });
});
