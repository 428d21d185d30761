import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { importBoundaries, importGeoNames, importOsm, type Place } from '../libs/places/src/index.js';
import { SearchIndex } from '../libs/places/src/testing/benchmarked.js';
import { toRow, type Check, type Row, type Sample, type Section } from './report.js';
import { seededRandom as mulberry32 } from '../libs/platform/src/testing/seeded-random.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';

/**
 * GET /v2/search's index over the Ghana gazetteer (GeoNames, 19k features, plus
 * the 2.5k Accra stops from OSM), in process: the HTTP layer is measured by the
 * http benchmark. Each query kind is compared, on the same queries in the same
 * run, with a linear scan of the pre-normalised names (what searching without
 * an index costs: a substring test per place, no ranking, no typos), and an
 * exact Map lookup is shown as the floor.
 */
export interface SearchBenchOptions {
  queriesPerCase: number;
  rounds: number;
  progress: (line: string) => void;
}

const SHARED = fileURLToPath(new URL('../../../shared/data/', import.meta.url));

export async function runSearchBench(options: SearchBenchOptions): Promise<Section> {
  const settings = { queries_per_case: options.queriesPerCase, rounds: options.rounds, limit: 10 };
  if (!existsSync(SHARED)) {
    options.progress(`search: skipped, ${SHARED} is absent`);
    return { id: 'search', title: 'search: skipped (../shared/data is absent)', unit: 'query', settings, rows: [], checks: [] };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-search-'));
  try {
    const store = new FileDatasetStore(dir);
    const ghana = path.join(SHARED, 'ghana-places');
    await importBoundaries(store, [path.join(ghana, 'gha_adm1_regions.geojson'), path.join(ghana, 'gha_adm2_districts.geojson')]);
    await importGeoNames(store, path.join(ghana, 'geonames_GH.txt'));
    await importOsm(store, path.join(SHARED, 'accra-osm/overpass-stops.xml'), { dataset: 'osm-accra-stops' });
    const places: Place[] = [];
    for (const dataset of await store.liveDatasets('places')) for await (const place of store.records<Place>((await store.current(dataset))!)) places.push(place);

    const buildStarted = performance.now();
    const index = new SearchIndex(places);
    const buildMs = performance.now() - buildStarted;
    options.progress(`search: ${places.length} places indexed in ${buildMs.toFixed(0)} ms`);

    const names = places.map((place) => normaliseForScan(place.name));
    const byName = new Map<string, number[]>();
    names.forEach((name, i) => byName.set(name, [...(byName.get(name) ?? []), i]));
    const linear = (text: string) => {
      const needle = normaliseForScan(text);
      const found: number[] = [];
      for (let i = 0; i < names.length; i++) if (names[i].includes(needle)) found.push(i);
      return found.length;
    };

    const random = mulberry32(20_240_601);
    const pick = () => places[Math.floor(random() * places.length)];
    const cases: Array<{ name: string; queries: Array<{ text: string; near?: { lat: number; lng: number } }> }> = [
      { name: 'exact name', queries: times(options.queriesPerCase, () => ({ text: pick().name })) },
      { name: 'prefix (type-ahead, 3-5 letters)', queries: times(options.queriesPerCase, () => ({ text: pick().name.slice(0, 3 + Math.floor(random() * 3)) })) },
      { name: 'one typo (did_you_mean path)', queries: times(options.queriesPerCase, () => ({ text: typo(pick().name, random) })) },
      { name: 'exact name + near', queries: times(options.queriesPerCase, () => ({ text: pick().name, near: { lat: 5 + random() * 6, lng: -3 + random() * 4 } })) },
    ];

    const rows: Row[] = [];
    let suggestions = 0;
    let typoQueries = 0;
    for (const testCase of cases) {
      options.progress(`search: ${testCase.name}`);
      const samples: Record<'scan' | 'ours' | 'map', Sample[]> = { scan: [], ours: [], map: [] };
      for (let round = 0; round < options.rounds; round++) {
        const order: Array<'scan' | 'ours' | 'map'> = round % 2 === 0 ? ['scan', 'ours', 'map'] : ['ours', 'scan', 'map'];
        for (const subject of order) {
          samples[subject].push(
            measure(testCase.queries, (query) => {
              if (subject === 'scan') linear(query.text);
              else if (subject === 'map') byName.get(normaliseForScan(query.text));
              else {
                const result = index.search({ text: query.text, near: query.near, limit: 10, offset: 0 });
                if (round === 0 && testCase.name.startsWith('one typo')) {
                  typoQueries++;
                  if (result.did_you_mean !== null || result.hits.length > 0) suggestions++;
                }
              }
            }),
          );
        }
      }
      const baseline = toRow(`linear scan: ${testCase.name}`, 'baseline', samples.scan);
      rows.push(baseline, toRow(`SearchIndex.search: ${testCase.name}`, 'ours', samples.ours, baseline));
      rows.push(toRow(`Map.get exact: ${testCase.name}`, 'reference', samples.map, undefined, 'floor: no ranking'));
    }

    const checks: Check[] = [
      { name: 'typos still find something', ok: suggestions / Math.max(1, typoQueries) > 0.5, detail: `${suggestions} of ${typoQueries} one-typo queries answered with hits or a suggestion` },
      { name: 'Kumasy suggests Kumasi', ok: index.search({ text: 'Kumasy', limit: 1, offset: 0 }).did_you_mean === 'Kumasi', detail: 'did_you_mean on the real gazetteer' },
    ];
    return {
      id: 'search',
      title: `search over the Ghana gazetteer: ${places.length} places, index built in ${buildMs.toFixed(0)} ms`,
      unit: 'query',
      settings: { ...settings, places: places.length, index_build_ms: Math.round(buildMs) },
      rows,
      checks,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function measure<T>(queries: T[], run: (query: T) => void): Sample {
  const latenciesMs: number[] = [];
  const started = performance.now();
  for (const query of queries) {
    const t0 = performance.now();
    run(query);
    latenciesMs.push(performance.now() - t0);
  }
  return { ops: queries.length, seconds: (performance.now() - started) / 1000, latenciesMs };
}

function normaliseForScan(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** One slip: a letter dropped, doubled, swapped with the next, or replaced. */
function typo(name: string, random: () => number): string {
  if (name.length < 5) return name;
  const at = 1 + Math.floor(random() * (name.length - 2));
  switch (Math.floor(random() * 4)) {
    case 0:
      return name.slice(0, at) + name.slice(at + 1);
    case 1:
      return name.slice(0, at) + name[at] + name.slice(at);
    case 2:
      return name.slice(0, at) + name[at + 1] + name[at] + name.slice(at + 2);
    default:
      return name.slice(0, at) + 'xqzk'[Math.floor(random() * 4)] + name.slice(at + 1);
  }
}

function times<T>(count: number, make: () => T): T[] {
  return Array.from({ length: count }, make);
}

