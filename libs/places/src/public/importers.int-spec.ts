import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Place } from '../domain/place.js';
import { FileDatasetStore } from '../../../platform/src/index.js';
import { importBoundaries, importGeoNames, importOsm, ImportError, type ImportProgress } from './importers.js';
import { OsmFormatError } from '../../../reference-data/src/index.js';
import { writePbf, type FixtureNode, type FixtureWay } from '../../../reference-data/src/osm/testing/pbf-writer.js';

const fixture = (name: string) => fileURLToPath(new URL(`../__fixtures__/${name}`, import.meta.url));
const REGIONS = fixture('boundaries-regions.geojson');
const DISTRICTS = fixture('boundaries-districts.geojson');
const SHARED = path.resolve(fileURLToPath(new URL('../../../../../shared/data', import.meta.url)));
const hasSharedData = existsSync(SHARED);
if (!hasSharedData) console.info(`importers.int-spec: ${SHARED} is absent, skipping the real-data imports`);

const freshStore = () => new FileDatasetStore(mkdtempSync(path.join(tmpdir(), 'places-import-')));

async function places(store: FileDatasetStore, dataset: string): Promise<Place[]> {
  const current = await store.current(dataset);
  const result: Place[] = [];
  for await (const place of store.records<Place>(current!)) result.push(place);
  return result;
}

const byName = (list: Place[], name: string) => list.find((place) => place.name === name);

describe('GeoNames import', () => {
  it('imports every valid row, skips the others and reports progress to 100 %', async () => {
    const store = freshStore();
    const progress: ImportProgress[] = [];
    const { stats, version } = await importGeoNames(store, fixture('geonames-sample.txt'), { onProgress: (p) => progress.push(p) });
    expect(stats).toMatchObject({ rows: 18, places: 16, skipped_rows: 2 });
    expect(version.manifest).toMatchObject({ dataset: 'places/geonames', records: 16, attribution: ['GeoNames (geonames.org), CC BY 4.0'], sources: ['geonames-sample.txt'] });
    expect(progress.at(-1)).toMatchObject({ done: progress.at(-1)!.total, records: 16 });
    const kumasi = byName(await places(store, 'places/geonames'), 'Kumasi');
    expect(kumasi).toMatchObject({ id: 'geonames:2298890', region: null, district: null });
  });

  it('names region and district from the boundaries imported before', async () => {
    const store = freshStore();
    await importBoundaries(store, [REGIONS, DISTRICTS]);
    const { stats } = await importGeoNames(store, fixture('geonames-sample.txt'));
    const list = await places(store, 'places/geonames');
    expect(byName(list, 'Madina')).toMatchObject({ region: 'Greater Accra', district: 'La-Nkwantanang-Madina' });
    expect(byName(list, 'Tema')).toMatchObject({ region: 'Greater Accra', district: null });
    expect(list.filter((place) => place.region !== null)).toHaveLength(stats.with_admin_names);
  });

  it('refuses a file without a single place, and the live version stays', async () => {
    const store = freshStore();
    const live = await importGeoNames(store, fixture('geonames-sample.txt'));
    const bogus = path.join(store.root, 'bogus.txt');
    writeFileSync(bogus, 'id,name\n1,Accra\n');
    await expect(importGeoNames(store, bogus)).rejects.toThrow(ImportError);
    expect(await store.currentVersion('places/geonames')).toBe(live.version.version);
  });
});

describe('boundaries import', () => {
  it('keeps level-1 and level-2 areas and gives the live place sets the new names', async () => {
    const store = freshStore();
    await importGeoNames(store, fixture('geonames-sample.txt'));
    await importOsm(store, fixture('osm-sample.osm'), { dataset: 'osm-accra' });
    const { stats } = await importBoundaries(store, [REGIONS, DISTRICTS]);
    expect(stats).toMatchObject({ features: 7, level_1: 2, level_2: 3, skipped_features: 2, 'reannotated:places/geonames': 16, 'reannotated:places/osm-accra': 4 });
    expect(byName(await places(store, 'places/geonames'), 'Kumasi')).toMatchObject({ region: 'Ashanti', district: 'Kumasi Metropolitan' });
    expect(byName(await places(store, 'places/osm-accra'), 'Makola Market')).toMatchObject({ region: 'Greater Accra', district: 'Accra Metropolis' });
  });

  it('refuses files without an admin boundary', async () => {
    const store = freshStore();
    const file = path.join(store.root, 'points.geojson');
    writeFileSync(file, JSON.stringify({ type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: 'x' }, geometry: { type: 'Point', coordinates: [0, 0] } }] }));
    await expect(importBoundaries(store, [file])).rejects.toThrow(ImportError);
    expect(await store.current('boundaries')).toBeNull();
  });
});

/** What the XML fixture holds as places, also written as PBF below: the two readers must agree. */
function expectFixturePlaces(list: Place[]): void {
  expect(list.map((place) => place.id).sort()).toEqual(['osm:node/1', 'osm:node/2', 'osm:node/5', 'osm:way/100']);
  expect(byName(list, 'Korle Bu Teaching Hospital')).toMatchObject({
    kind: 'hospital',
    feature: 'amenity=hospital',
    lat: 5.536,
    lng: -0.227,
    alt_names: ['KBTH', 'Korle-Bu'],
    phone: '+233 30 266 6424',
    website: 'https://kbth.gov.gh',
    opening_hours: '24/7',
    tags: { wikidata: 'Q6432254' },
  });
  expect(byName(list, 'Madina Station')).toMatchObject({ kind: 'bus_stop', feature: 'highway=bus_stop' });
  expect(byName(list, 'Papaye & Co é')).toMatchObject({ kind: 'fast_food' });
  // A closed way at the mean of its four distinct corners.
  const market = byName(list, 'Makola Market')!;
  expect(market).toMatchObject({ kind: 'marketplace', alt_names: ['Makola No. 1'] });
  expect(market.lat).toBeCloseTo(5.549, 6);
  expect(market.lng).toBeCloseTo(-0.209, 6);
}

describe('OSM XML import', () => {
  it('imports named POI nodes and ways, and nothing else', async () => {
    const store = freshStore();
    const { stats, version } = await importOsm(store, fixture('osm-sample.osm'));
    expect(stats).toMatchObject({ nodes: 9, poi_nodes: 3, poi_ways: 1, places: 4 });
    expect(version.manifest.attribution).toEqual(['© OpenStreetMap contributors']);
    expectFixturePlaces(await places(store, 'places/osm'));
  });

  it('refuses a truncated file', async () => {
    const store = freshStore();
    const file = path.join(store.root, 'cut.osm');
    writeFileSync(file, '<?xml version="1.0"?><osm version="0.6"><node id="1" lat="5" lon="-0.2"><tag k="amenity" v="cafe"/><tag k="name" v="Cut');
    await expect(importOsm(store, file)).rejects.toThrow(OsmFormatError);
    expect(await store.current('places/osm')).toBeNull();
  });
});

describe('OSM PBF import', () => {
  const nodes: FixtureNode[] = [
    { id: 1, lat: 5.536, lng: -0.227, tags: { amenity: 'hospital', name: 'Korle Bu Teaching Hospital', alt_name: 'KBTH;Korle-Bu', phone: '+233 30 266 6424', website: 'https://kbth.gov.gh', opening_hours: '24/7', wikidata: 'Q6432254' } },
    { id: 2, lat: 5.6760292, lng: -0.1712618, tags: { highway: 'bus_stop', public_transport: 'platform', name: 'Madina Station' } },
    { id: 3, lat: 5.6, lng: -0.2 },
    { id: 4, lat: 5.61, lng: -0.21, tags: { highway: 'traffic_signals', name: 'Some Junction Lights' } },
    { id: 5, lat: 5.56, lng: -0.19, tags: { shop: 'fast_food', name: 'Papaye & Co é' } },
    { id: 10, lat: 5.548, lng: -0.21 },
    { id: 11, lat: 5.548, lng: -0.208 },
    { id: 12, lat: 5.55, lng: -0.208 },
    { id: 13, lat: 5.55, lng: -0.21 },
  ];
  const ways: FixtureWay[] = [
    { id: 100, refs: [10, 11, 12, 13, 10], tags: { amenity: 'marketplace', name: 'Makola Market', 'name:en': 'Makola Market', old_name: 'Makola No. 1' } },
    { id: 101, refs: [10, 11], tags: { highway: 'primary', name: 'Kojo Thompson Road' } },
  ];

  it.each([
    ['zlib blobs, dense nodes', { compress: true }],
    ['raw blobs, plain nodes', { compress: false, plainNodes: true }],
  ])('reads %s like the same data in XML', async (_, options) => {
    const store = freshStore();
    const file = path.join(store.root, 'fixture.osm.pbf');
    writePbf(file, { nodes, ways }, options);
    const { stats } = await importOsm(store, file);
    expect(stats).toMatchObject({ nodes: 9, ways: 2, poi_nodes: 3, poi_ways: 1 });
    expectFixturePlaces(await places(store, 'places/osm'));
  });

  it('refuses a file that is not PBF, or is cut short', async () => {
    const store = freshStore();
    const junk = path.join(store.root, 'junk.pbf');
    writeFileSync(junk, Buffer.from([0, 0, 0, 5, 1, 2, 3]));
    await expect(importOsm(store, junk)).rejects.toThrow(OsmFormatError);
    const cut = path.join(store.root, 'cut.osm.pbf');
    writePbf(cut, { nodes, ways }, { compress: true });
    const whole = readFileSync(cut);
    writeFileSync(cut, whole.subarray(0, whole.length - 10));
    await expect(importOsm(store, cut)).rejects.toThrow(/truncated|ends inside/);
    expect(await store.current('places/osm')).toBeNull();
  });
});

describe('gzipped sources (told by their first bytes, whatever their name)', () => {
  const gzipped = (store: FileDatasetStore, name: string, target: string) => {
    const file = path.join(store.root, target);
    writeFileSync(file, gzipSync(readFileSync(fixture(name))));
    return file;
  };
  const withoutVersion = (list: Place[]) => list.map((place) => JSON.stringify(place)).sort();

  it('imports the same places and boundaries from .gz files as from the plain ones, with progress to the file size', async () => {
    const plain = freshStore();
    await importBoundaries(plain, [REGIONS, DISTRICTS]);
    await importGeoNames(plain, fixture('geonames-sample.txt'));
    await importOsm(plain, fixture('osm-sample.osm'));

    const store = freshStore();
    const boundaries = await importBoundaries(store, [gzipped(store, 'boundaries-regions.geojson', 'regions.geojson.gz'), gzipped(store, 'boundaries-districts.geojson', 'districts')], {
      attribution: ['OCHA COD-AB'],
    });
    expect(boundaries.stats).toMatchObject({ level_1: 2, level_2: 3 });
    expect(boundaries.version.manifest.attribution).toEqual(['OCHA COD-AB']);
    const progress: ImportProgress[] = [];
    const geonamesFile = gzipped(store, 'geonames-sample.txt', 'GH.txt.gz');
    await importGeoNames(store, geonamesFile, { onProgress: (p) => progress.push(p) });
    expect(progress.at(-1)).toMatchObject({ done: readFileSync(geonamesFile).length, total: readFileSync(geonamesFile).length });
    const { stats } = await importOsm(store, gzipped(store, 'osm-sample.osm', 'accra.osm.gz'));
    expect(stats).toMatchObject({ poi_nodes: 3, poi_ways: 1 });

    for (const dataset of ['places/geonames', 'places/osm']) expect(withoutVersion(await places(store, dataset))).toEqual(withoutVersion(await places(plain, dataset)));
    expectFixturePlaces(await places(store, 'places/osm'));
  });

  it('refuses a gzipped PBF, and a gzipped file cut short leaves the live version', async () => {
    const store = freshStore();
    const pbf = path.join(store.root, 'fixture.osm.pbf');
    writePbf(pbf, { nodes: [{ id: 1, lat: 5, lng: -0.2, tags: { amenity: 'cafe', name: 'Cafe' } }], ways: [] }, { compress: true });
    writeFileSync(`${pbf}.gz`, gzipSync(readFileSync(pbf)));
    await expect(importOsm(store, `${pbf}.gz`)).rejects.toThrow(/gzipped but not OSM XML/);
    const live = await importGeoNames(store, fixture('geonames-sample.txt'));
    const cut = path.join(store.root, 'cut.txt.gz');
    const whole = gzipSync(readFileSync(fixture('geonames-sample.txt')));
    writeFileSync(cut, whole.subarray(0, whole.length - 20));
    await expect(importGeoNames(store, cut)).rejects.toThrow(/unexpected end of file/);
    expect(await store.currentVersion('places/geonames')).toBe(live.version.version);
  });

  it('leaves the live place sets alone when told not to reannotate', async () => {
    const store = freshStore();
    const live = await importGeoNames(store, fixture('geonames-sample.txt'));
    const { stats } = await importBoundaries(store, [REGIONS, DISTRICTS], { reannotate: false });
    expect(Object.keys(stats).filter((key) => key.startsWith('reannotated:'))).toEqual([]);
    expect(await store.currentVersion('places/geonames')).toBe(live.version.version);
  });
});

(hasSharedData ? describe : describe.skip)('real data from ../shared/data', () => {
  it('imports Monaco’s PBF: POI nodes and ways with their tags', async () => {
    const store = freshStore();
    const { stats } = await importOsm(store, path.join(SHARED, 'osm-pbf/monaco.osm.pbf'), { dataset: 'osm-monaco' });
    expect(stats.nodes).toBeGreaterThan(150_000);
    expect(stats.poi_nodes).toBeGreaterThan(300);
    expect(stats.poi_ways).toBeGreaterThan(100);
    expect(stats.ways_without_nodes).toBe(0);
    const list = await places(store, 'places/osm-monaco');
    // Monaco and its edges: every coordinate decoded into the extract's area.
    for (const place of list) {
      expect(place.lat).toBeGreaterThan(43.6);
      expect(place.lat).toBeLessThan(43.9);
      expect(place.lng).toBeGreaterThan(7.3);
      expect(place.lng).toBeLessThan(7.6);
    }
    expect(list.find((place) => place.id === 'osm:node/21911883' || (place.name === 'Monte-Carlo' && place.kind === 'suburb'))).toMatchObject({ lat: 43.7402961, lng: 7.426559 });
    expect(list.some((place) => place.opening_hours !== null)).toBe(true);
    expect(list.some((place) => place.website !== null)).toBe(true);
  }, 60_000);

  it('imports the Ghana gazetteer with regions and districts from the 2021 boundaries', async () => {
    const store = freshStore();
    const places = path.join(SHARED, 'ghana-places');
    await importBoundaries(store, [path.join(places, 'gha_adm1_regions.geojson'), path.join(places, 'gha_adm2_districts.geojson')]);
    const { stats } = await importGeoNames(store, path.join(places, 'geonames_GH.txt'));
    expect(stats).toMatchObject({ rows: 19_028, places: 19_028, skipped_rows: 0 });
    expect(stats.with_admin_names / stats.places).toBeGreaterThan(0.98);
    const { stats: stops } = await importOsm(store, path.join(SHARED, 'accra-osm/overpass-stops.xml'), { dataset: 'osm-accra-stops' });
    expect(stops.places).toBeGreaterThan(2_400);
  }, 120_000);
});

if (!hasSharedData) console.warn(`skipping the real-data import tests: ${SHARED} is absent`);
