import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importBoundaries, importGeoNames, importOsm, type Place } from '../../../places/src/index.js';
import { FileDatasetStore } from '../../../platform/src/index.js';
import { appRoot, DEFAULT_PACK, DEFAULT_SOURCES, parseRecipe, readManifest, verifyPack, type Recipe, type RecipeSource } from '../public/pack.js';
import { buildStarterPack, contentOf } from '../public/build-pack.js';

const root = appRoot();
const libs = path.join(root, 'libs');
const temp = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));
const licence = { licence: 'ODbL 1.0', licence_url: 'https://opendatacommons.org/licenses/odbl/1-0/', attribution: '© OpenStreetMap contributors', what: 'fixture', origin: 'fixture' };
const source = (role: RecipeSource['role'], file: string, overrides: Partial<RecipeSource> = {}): RecipeSource => ({ role, file, ...licence, ...overrides });

/** Fixture sources, paths relative to libs/. */
const fixtureRecipe: Recipe = {
  name: 'fixture',
  title: 'Fixture',
  covers: 'A few places of Accra.',
  sources: [
    source('boundaries', 'places/src/__fixtures__/boundaries-regions.geojson', { licence: 'OCHA COD terms of use', licence_url: 'https://data.humdata.org/', attribution: 'Boundaries: OCHA' }),
    source('boundaries', 'places/src/__fixtures__/boundaries-districts.geojson', { licence: 'OCHA COD terms of use', licence_url: 'https://data.humdata.org/', attribution: 'Boundaries: OCHA' }),
    source('geonames', 'places/src/__fixtures__/geonames-sample.txt', { licence: 'CC BY 4.0', licence_url: 'https://creativecommons.org/licenses/by/4.0/', attribution: 'GeoNames (geonames.org), CC BY 4.0' }),
    source('landmarks-osm-geojson', 'starter/src/build/__fixtures__/schools.geojson'),
    source('landmarks-osm-sqlite', 'starter/src/build/__fixtures__/pois.sqlite'),
    source('landmarks-osm', 'places/src/__fixtures__/osm-sample.osm'),
    source('roads-osm', 'places/src/__fixtures__/osm-sample.osm'),
    source('gtfs', 'starter/src/build/__fixtures__/gtfs.zip', { attribution: 'Trotro GTFS, ODbL' }),
  ],
};

async function build(recipe: Recipe, outDir = temp('starter-build-'), sourcesDir = libs) {
  const text = `${JSON.stringify(recipe, null, 2)}\n`;
  const manifest = await buildStarterPack({ recipe: parseRecipe(text, 'recipe'), recipeText: text, sourcesDir, outDir });
  return { outDir, manifest };
}

/** Every file under `dir` (relative path → bytes). */
function filesOf(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (at: string) => {
    for (const name of readdirSync(at).sort()) {
      const full = path.join(at, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(path.relative(dir, full), readFileSync(full));
    }
  };
  walk(dir);
  return files;
}

async function placesOf(store: FileDatasetStore, dataset: string): Promise<Map<string, Place>> {
  const result = new Map<string, Place>();
  for await (const place of store.records<Place>((await store.current(dataset))!)) result.set(place.id, place);
  return result;
}

describe('starter:build', () => {
  it('gives the same bytes twice, and a manifest whose checksums and counts match its files', async () => {
    const first = await build(fixtureRecipe);
    const second = await build(fixtureRecipe);
    const a = filesOf(first.outDir);
    const b = filesOf(second.outDir);
    expect([...a.keys()]).toEqual([
      'LICENCES.md',
      'boundaries/boundaries-districts.geojson.gz',
      'boundaries/boundaries-regions.geojson.gz',
      'landmarks/osm-pois.osm.gz',
      'manifest.json',
      'places/geonames-sample.txt.gz',
      'recipe.json',
      'roads/roads.osm.gz',
      'transit/gtfs.zip',
    ]);
    for (const [file, bytes] of a) expect({ file, same: bytes.equals(b.get(file)!) }).toEqual({ file, same: true });
    expect(await verifyPack(first.outDir, first.manifest)).toEqual([]);
    expect(first.manifest.datasets.map((d) => [d.kind, d.dataset, d.counts])).toEqual([
      ['boundaries', 'boundaries', { level_1: 2, level_2: 3 }],
      ['places', 'places/geonames', { rows: 18 }],
      ['landmarks', 'places/osm', { 'named_nodes:osm-sample.osm': 4, 'named_nodes:pois.sqlite': 4, 'named_nodes:schools.geojson': 2, nodes: 8 }],
      ['roads', 'roads', { ways: 1, nodes: 2 }],
      ['transit', 'transit/gtfs', { agency: 1, calendar: 1, routes: 1, stop_times: 2, stops: 2, trips: 1 }],
    ]);
    expect(first.manifest.sources.map((s) => s.sha256)).toEqual(fixtureRecipe.sources.map((s) => createHash('sha256').update(readFileSync(path.join(libs, s.file))).digest('hex')));
    // gzip with no time or name in it: the same header on every machine.
    expect([...readFileSync(path.join(first.outDir, 'roads/roads.osm.gz')).subarray(0, 10)]).toEqual([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff]);
  });

  it('writes what the importers read back: boundaries, the gazetteer, landmarks merged by OSM id', async () => {
    const { outDir } = await build(fixtureRecipe);
    const store = new FileDatasetStore(temp('starter-import-'));
    await importBoundaries(store, ['boundaries/boundaries-regions.geojson.gz', 'boundaries/boundaries-districts.geojson.gz'].map((file) => path.join(outDir, file)));
    const geonames = await importGeoNames(store, path.join(outDir, 'places/geonames-sample.txt.gz'));
    expect(geonames.stats).toMatchObject({ rows: 18, places: 16 });
    await importOsm(store, path.join(outDir, 'landmarks/osm-pois.osm.gz'));
    const landmarks = await placesOf(store, 'places/osm');
    // The first source that has a node gives its position and wins a shared tag; the later ones add theirs.
    expect(landmarks.get('osm:node/1390293382')).toMatchObject({ name: 'Makola Market School', kind: 'school', lat: 5.5468, lng: -0.2062, tags: { 'addr:city': 'Accra' }, region: 'Greater Accra' });
    expect(landmarks.get('osm:node/1')).toMatchObject({ name: 'Korle Bu (2019)', kind: 'hospital', phone: '+233 30 266 6424', website: 'https://kbth.gov.gh', opening_hours: '24/7' });
    expect(landmarks.get('osm:node/27565080')).toMatchObject({ name: 'Accra', kind: 'city', population: 2388000 });
    expect(landmarks.get('osm:node/701')).toMatchObject({ name: 'Tower "A" & <B>', kind: 'tower' });
    expect(landmarks.has('osm:node/700')).toBe(false);
    expect(landmarks.has('osm:way/100')).toBe(false);
    const roads = contentOf(readFileSync(path.join(outDir, 'roads/roads.osm.gz')), 'roads.osm.gz').toString('utf8');
    expect(roads).toContain('<way id="101">');
    expect(roads).not.toContain('id="100"');
  });

  it('names every source and licence in LICENCES.md', async () => {
    const { outDir } = await build(fixtureRecipe);
    const text = readFileSync(path.join(outDir, 'LICENCES.md'), 'utf8');
    for (const name of ['ODbL 1.0', 'CC BY 4.0', 'OCHA COD terms of use', '© OpenStreetMap contributors', 'GeoNames (geonames.org), CC BY 4.0', 'Trotro GTFS, ODbL', '`osm-sample.osm`', '`pois.sqlite`', '`landmarks/osm-pois.osm.gz`']) {
      expect(text).toContain(name);
    }
  });

  it('rebuilds a pack in place: files the recipe no longer makes go, files it never made stay', async () => {
    const { outDir } = await build(fixtureRecipe);
    writeFileSync(path.join(outDir, 'NOTES.txt'), 'mine');
    await build({ ...fixtureRecipe, sources: fixtureRecipe.sources.filter((s) => s.role !== 'gtfs' && s.role !== 'roads-osm') }, outDir);
    const files = [...filesOf(outDir).keys()];
    expect(files).toContain('NOTES.txt');
    expect(files).not.toContain('transit/gtfs.zip');
    expect(files).not.toContain('roads/roads.osm.gz');
    expect(await verifyPack(outDir, await readManifest(outDir))).toEqual([]);
  });

  it('refuses a missing source by name, two gazetteers, and recipes it cannot read', async () => {
    await expect(build({ ...fixtureRecipe, sources: [source('geonames', 'nowhere/GH.txt')] })).rejects.toThrow(/nowhere\/GH.txt \(geonames\): not found/);
    await expect(build({ ...fixtureRecipe, sources: [fixtureRecipe.sources[2], fixtureRecipe.sources[2]] })).rejects.toThrow(/one geonames source at most/);
    expect(() => parseRecipe('{"name":"x","title":"X","covers":"x","sources":[{"role":"shapefile"}]}', 'r.json')).toThrow(/sources\[0\].role must be one of/);
    expect(() => parseRecipe('{"name":"X Y"}', 'r.json')).toThrow(/expected \{name/);
    expect(() => parseRecipe('{', 'r.json')).toThrow(/not JSON/);
  });
});

describe('the committed starter pack', () => {
  const packDir = path.join(root, DEFAULT_PACK);

  it('matches its manifest, stays well under 10 MB and covers boundaries, places, landmarks, roads and transit', async () => {
    const manifest = await readManifest(packDir);
    expect(await verifyPack(packDir, manifest)).toEqual([]);
    const bytes = Object.values(manifest.files).reduce((sum, file) => sum + file.bytes, 0);
    expect(bytes).toBeLessThan(5_000_000);
    expect(manifest.datasets.map((d) => [d.kind, d.dataset])).toEqual([
      ['boundaries', 'boundaries'],
      ['places', 'places/geonames'],
      ['landmarks', 'places/osm'],
      ['roads', 'roads'],
      ['roads-backbone', 'roads-backbone'],
      ['transit', 'transit/gtfs'],
    ]);
    // The national backbone (docs/adr/0035) thinned to what routing needs: about half a megabyte.
    expect(manifest.files['roads/ghana-backbone.osm.gz'].bytes).toBeLessThan(600_000);
    expect(manifest.datasets[0].counts).toEqual({ level_1: 16, level_2: 260 });
    expect(manifest.datasets[1].counts).toEqual({ rows: 19_028 });
    const licences = readFileSync(path.join(packDir, 'LICENCES.md'), 'utf8');
    for (const name of ['ODbL 1.0', 'CC BY 4.0', 'OCHA COD terms of use', '© OpenStreetMap contributors', 'The World Bank: Ghana Roads (AICD, 2009)']) expect(licences).toContain(name);
  });

  const sharedData = path.resolve(root, DEFAULT_SOURCES);
  (existsSync(sharedData) ? it : it.skip)(
    'is what starter:build makes from ../shared/data, byte for byte on each build (content for content with another zlib)',
    async () => {
      const committed = await readManifest(packDir);
      const recipeText = readFileSync(path.join(packDir, 'recipe.json'), 'utf8');
      const builds = [];
      for (let i = 0; i < 2; i++) {
        const outDir = temp('starter-ghana-');
        builds.push({ outDir, manifest: await buildStarterPack({ recipe: parseRecipe(recipeText, 'recipe.json'), recipeText, sourcesDir: sharedData, outDir }) });
      }
      const [a, b] = builds.map((build) => filesOf(build.outDir));
      expect([...a.keys()]).toEqual([...b.keys()]);
      for (const [file, bytes] of a) expect({ file, same: bytes.equals(b.get(file)!) }).toEqual({ file, same: true });
      const built = builds[0].manifest;
      expect(built.sources).toEqual(committed.sources);
      expect(built.datasets).toEqual(committed.datasets);
      for (const [file, entry] of Object.entries(committed.files)) {
        expect({ file, content: built.files[file]?.content_sha256 }).toEqual({ file, content: entry.content_sha256 });
        if (built.builder.zlib === committed.builder.zlib) expect({ file, sha256: built.files[file].sha256 }).toEqual({ file, sha256: entry.sha256 });
      }
    },
    120_000,
  );
  if (!existsSync(sharedData)) console.log(`skipped rebuilding the committed starter pack: ${sharedData} is absent`);
});
