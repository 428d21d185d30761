import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importBoundaries, importGeoNames, importOsm } from '../libs/places/src/index.js';
import { bootService, eventually, type Service } from './support/boot.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';

/** interface.md, "Addresses, hex codes and search": GET /v2/search; decisions.md for shapes and errors. */
const root = path.resolve(import.meta.dirname, '..');
const fixture = (name: string) => path.join(root, 'libs/places/src/__fixtures__', name);

interface Item {
  id: string;
  name: string;
  kind: string;
  lat: number;
  lng: number;
  region: string | null;
  district: string | null;
  score: number;
  match: string;
  matched_name: string | null;
  distance_m: number | null;
  phone: string | null;
  website: string | null;
  opening_hours: string | null;
  source: string;
}
interface Page {
  query: string;
  items: Item[];
  next_cursor: string | null;
  did_you_mean: string | null;
  attribution: string[];
  datasets: Array<{ dataset: string; version: string }>;
}

describe('place search over HTTP', () => {
  let service: Service;
  let key: string;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-places-'));
    const store = new FileDatasetStore(path.join(dataDir, 'reference'));
    await importBoundaries(store, [fixture('boundaries-regions.geojson'), fixture('boundaries-districts.geojson')]);
    await importGeoNames(store, fixture('geonames-sample.txt'));
    service = await bootService({ dataDir });
    const signup = await service.request('POST', '/v2/self/signup', { body: { name: 'Yaa', email: `yaa-${Date.now()}@example.com` } });
    key = ((await signup.json()) as { data: { key: string } }).data.key;
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  const search = (query: string) => service.request('GET', `/v2/search?${query}`, { key });
  const page = async (query: string): Promise<Page> => {
    const response = await search(query);
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: Page }).data;
  };
  const error = async (query: string) => {
    const response = await search(query);
    return { status: response.status, ...((await response.json()) as { error: { code: string; field?: string } }).error };
  };

  it('says the data covers Ghana, and that a query naming a place elsewhere is not answered by its Ghanaian namesakes (issue 28)', async () => {
    const kumasi = (await page('q=Kumasi')) as unknown as Record<string, unknown>;
    expect(kumasi).toMatchObject({ coverage: { countries: ['GH'] }, outside_coverage: null });
    for (const [query, name, country] of [['Lagos', 'Lagos', 'NG'], ['Abidjan, Cote d%27Ivoire', 'Abidjan', 'CI'], ['lome', 'Lomé', 'TG']]) {
      const result = (await page(`q=${query}`)) as unknown as Record<string, unknown>;
      expect(result).toMatchObject({ coverage: { countries: ['GH'] }, outside_coverage: { name, country, note: expect.stringMatching(/outside the data this service covers, which is Ghana only/) } });
    }
    // A street named after a city is not the city.
    expect(((await page('q=Lagos+Avenue')) as unknown as Record<string, unknown>).outside_coverage).toBeNull();
  });

  it('ranks the named city first, with its region and district and the attribution its source needs', async () => {
    const result = await page('q=Kumasi');
    expect(result.items[0]).toMatchObject({ id: 'geonames:2298890', name: 'Kumasi', kind: 'city', region: 'Ashanti', district: 'Kumasi Metropolitan', match: 'exact', source: 'geonames', distance_m: null });
    expect(result).toMatchObject({ query: 'Kumasi', did_you_mean: null, attribution: ['GeoNames (geonames.org), CC BY 4.0'], next_cursor: null });
    expect(result.datasets.map((d) => d.dataset)).toEqual(['places/geonames']);
  });

  it('reorders same-named places by distance to near, given as near=lat,lng or as lat and lng', async () => {
    const near = await page('q=Kumasi&near=5.46,-0.96');
    expect(near.items[0]).toMatchObject({ id: 'geonames:2298892' });
    expect(near.items[0].distance_m).toBeLessThan(1000);
    const separate = await page('q=Kumasi&lat=5.46&lng=-0.96');
    expect(separate.items.map((item) => item.id)).toEqual(near.items.map((item) => item.id));
    expect((await page('q=Madina&near=10.79,-2.49')).items[0].id).toBe('geonames:9900002');
  });

  it('suggests the known name for a misspelling or an alternate spelling', async () => {
    const typo = await page('q=Kumsai');
    expect(typo.did_you_mean).toBe('Kumasi');
    expect(typo.items[0]).toMatchObject({ name: 'Kumasi', match: 'fuzzy' });
    const alternate = await page('q=kumasy');
    expect(alternate.did_you_mean).toBe('Kumasi');
    expect(alternate.items[0]).toMatchObject({ name: 'Kumasi', match: 'alternate', matched_name: 'Kumasy' });
    expect((await page('q=Acra')).did_you_mean).toBe('Accra');
  });

  it('pages with next_cursor', async () => {
    const first = await page('q=Kumasi&limit=2');
    expect(first.items).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await page(`q=Kumasi&limit=2&cursor=${first.next_cursor}`);
    expect(second.items).toHaveLength(2);
    expect(second.items.map((item) => item.id)).not.toContain(first.items[0].id);
    expect(second.items.map((item) => item.id)).not.toContain(first.items[1].id);
  });

  it.each([
    ['', 'q'],
    [`q=${'a'.repeat(201)}`, 'q'],
    ['q=%21%21%21', 'q'],
    [`q=${Array.from({ length: 11 }, (_, i) => `w${i}`).join('+')}`, 'q'],
    ['q=Kumasi&q=Accra', 'q'],
    ['q=Kumasi&near=91,0', 'near'],
    ['q=Kumasi&near=5.6', 'near'],
    ['q=Kumasi&near=abc', 'near'],
    ['q=Kumasi&near=5.6,-0.2&lat=5.6&lng=-0.2', 'near'],
    ['q=Kumasi&lat=5.6', 'lng'],
    ['q=Kumasi&lat=95&lng=0', 'lat'],
    ['q=Kumasi&limit=0', 'limit'],
    ['q=Kumasi&limit=51', 'limit'],
    ['q=Kumasi&limit=ten', 'limit'],
    ['q=Kumasi&cursor=bm9wZQ', 'cursor'],
    ['q=Kumasi&radius=5', 'radius'],
  ])('answers 400 INVALID_PARAM naming the field for %s', async (query, field) => {
    const answer = await error(query);
    expect(answer).toMatchObject({ status: 400, code: 'INVALID_PARAM', field });
  });

  it('needs a key', async () => {
    const response = await service.request('GET', '/v2/search?q=Kumasi');
    expect(response.status).toBe(401);
  });

  it('picks up a new import while running, without restart', async () => {
    expect((await page('q=Korle')).items).toEqual([]);
    await importOsm(new FileDatasetStore(path.join(service.dataDir, 'reference')), fixture('osm-sample.osm'), { dataset: 'osm-accra' });
    const found = await eventually(async () => {
      const result = await page('q=Korle');
      return result.items.length > 0 ? result : undefined;
    }, 15_000);
    expect(found.items[0]).toMatchObject({
      id: 'osm:node/1',
      name: 'Korle Bu Teaching Hospital',
      kind: 'hospital',
      region: 'Greater Accra',
      district: 'Accra Metropolis',
      phone: '+233 30 266 6424',
      website: 'https://kbth.gov.gh',
      opening_hours: '24/7',
      source: 'osm',
    });
    expect(found.attribution).toEqual(['© OpenStreetMap contributors']);
  }, 30_000);

  it('documents the endpoint in the OpenAPI document', async () => {
    const document = (await (await service.request('GET', '/v2/openapi.json')).json()) as {
      paths: Record<string, Record<string, { parameters?: Array<{ name: string }>; responses: Record<string, unknown> }>>;
    };
    const operation = document.paths['/v2/search'].get;
    expect(operation.parameters?.map((parameter) => parameter.name).sort()).toEqual(['cursor', 'lat', 'limit', 'lng', 'near', 'q']);
    expect(Object.keys(operation.responses)).not.toContain('501');
  });
});

describe('place search before any import', () => {
  it('answers 503 DATASET_NOT_LOADED rather than an empty result', async () => {
    const service = await bootService();
    try {
      const signup = await service.request('POST', '/v2/self/signup', { body: { name: 'Kofi', email: `kofi-${Date.now()}@example.com` } });
      const key = ((await signup.json()) as { data: { key: string } }).data.key;
      const response = await service.request('GET', '/v2/search?q=Accra', { key });
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ success: false, error: { code: 'DATASET_NOT_LOADED' } });
    } finally {
      await service.close();
    }
  }, 60_000);
});

describe('import commands', () => {
  it('imports from the command line with progress, then lists the versions', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-places-ops-'));
    const ops = (...args: string[]) =>
      spawnSync(process.execPath, ['scripts/start.mjs', 'ops', ...args], { cwd: root, env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout: 60_000 });
    const imported = ops('import:osm', fixture('osm-sample.osm'), '--dataset', 'osm-accra');
    expect(imported.stderr).toMatch(/import:osm reading: 100%/);
    expect(imported.stdout).toMatch(/places\/osm-accra is now v\d{8}T\d{9}Z-[0-9a-f]{6} \(4 records\)/);
    expect(imported.status).toBe(0);
    const listed = ops('reference:list');
    expect(listed.stdout).toMatch(/^\* places\/osm-accra\tv\S+\t4 records\tosm-sample\.osm$/m);
    const missing = ops('import:geonames');
    expect(missing.status).toBe(64);
    const wrong = ops('import:geonames', fixture('osm-sample.osm'));
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain('no place in osm-sample.osm');
  }, 90_000);
});
