import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { hexCodeForPoint } from '../libs/addressing/src/index.js';
import { importGeoNames, importOsm } from '../libs/places/src/index.js';
import { ADMIN_KEY, bootService, type Service } from './support/boot.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';

/** interface.md, "Addresses, hex codes and search": the landmark endpoints; "States and transitions": exclusion until reviewed. */
const root = path.resolve(import.meta.dirname, '..');
const fixture = (name: string) => path.join(root, 'libs/places/src/__fixtures__', name);
const sharedData = path.resolve(root, '../shared/data');

interface Item {
  slug: string;
  name: string;
  kind: string;
  lat: number;
  lng: number;
  hex_code: string;
  distance_m: number;
  phone: string | null;
  website: string | null;
  opening_hours: string | null;
  photo_url: string | null;
  narration_status: string;
  source: string;
  provenance?: { source: string; provider: string; accuracy_meters: number; confidence: number; verified_at: string };
}
interface List {
  items: Item[];
  next_cursor: string | null;
  attribution: string[];
  scope?: string;
}

describe('landmarks over HTTP', () => {
  let service: Service;
  let key: string;
  let osmImportedAt: string;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-landmarks-'));
    osmImportedAt = (await importOsm(new FileDatasetStore(path.join(dataDir, 'reference')), fixture('landmarks-sample.osm'))).version.manifest.imported_at;
    // TRUST_PROXY: each test reporter comes from its own X-Forwarded-For address.
    service = await bootService({ dataDir, env: { TRUST_PROXY: 'true' } });
    const signup = await service.request('POST', '/v2/self/signup', { body: { name: 'Kofi', email: `kofi-${Date.now()}@example.com` } });
    key = ((await signup.json()) as { data: { key: string } }).data.key;
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  const get = async (url: string): Promise<List & Record<string, unknown>> => {
    const response = await service.request('GET', url, { key });
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: List & Record<string, unknown> }).data;
  };
  const failure = async (method: string, url: string, init: { key?: string; body?: unknown; headers?: Record<string, string> } = { key }) => {
    const response = await service.request(method, url, init);
    const body = (await response.json()) as { success: boolean; error: { code: string; field?: string } };
    expect(body.success).toBe(false);
    return { status: response.status, ...body.error };
  };
  const slugOf = async (name: string) => (await get('/v2/landmarks/around?lat=5.556&lng=-0.182&radius_m=5000&limit=50')).items.find((item) => item.name === name)!.slug;
  const report = (slug: string, ip: string, body: unknown = { reason: 'wrong_landmark' }, headers: Record<string, string> = {}) =>
    service.request('POST', `/v2/landmarks/${slug}/report`, { body, headers: { 'x-forwarded-for': ip, ...headers } });

  it('lists the landmarks around a point nearest first, with contact details, a photo only where the source has one, and no street furniture or suburbs', async () => {
    const around = await get('/v2/landmarks/around?lat=5.556&lng=-0.182&radius_m=500');
    expect(around.items.map((item) => item.name)).toEqual(['Total Osu Oxford Street', 'Christ the King Church', 'GCB Bank Osu']);
    const [fuel, church, bank] = around.items;
    expect(fuel).toMatchObject({
      kind: 'fuel',
      phone: '+233 30 277 0000',
      website: 'https://totalenergies.com.gh',
      opening_hours: '24/7',
      photo_url: 'https://commons.wikimedia.org/wiki/Special:FilePath/Total_filling_station_Osu.jpg',
      narration_status: 'candidate',
      source: 'osm',
      hex_code: hexCodeForPoint(5.556, -0.182),
      distance_m: 0,
    });
    expect(fuel.slug).toMatch(/^total-osu-oxford-street-[0-9a-z]{10}$/);
    expect(church.photo_url).toContain('Special:FilePath/Christ_the_King_Church%2C_Accra.jpg');
    expect(bank).toMatchObject({ phone: '+233 30 266 4910', photo_url: null, website: null });
    expect(church.distance_m).toBeLessThan(bank.distance_m);
    expect(around).toMatchObject({ attribution: ['© OpenStreetMap contributors'], next_cursor: null, radius_m: 500 });
  });

  it('pages with next_cursor', async () => {
    const first = await get('/v2/landmarks/around?lat=5.556&lng=-0.182&radius_m=5000&limit=2');
    expect(first.items).toHaveLength(2);
    const second = await get(`/v2/landmarks/around?lat=5.556&lng=-0.182&radius_m=5000&limit=2&cursor=${first.next_cursor}`);
    expect(second.items.map((item) => item.name)).toEqual(['GCB Bank Osu', 'Makola Market']);
    const third = await get(`/v2/landmarks/around?lat=5.556&lng=-0.182&radius_m=5000&limit=2&cursor=${second.next_cursor}`);
    expect(third.items.map((item) => item.name)).toEqual(['Koala Supermarket']);
    expect(third.next_cursor).toBeNull();
  });

  it('geocodes a bbox (north,south,east,west) to the landmarks whose point is inside it, with provenance', async () => {
    // Makola Market is a way: its point is the mean of its corners (5.549, -0.209).
    const box = await get('/v2/landmarks/geocode?bbox=5.5565,5.545,-0.1795,-0.21');
    expect(box.items.map((item) => item.name).sort()).toEqual(['GCB Bank Osu', 'Makola Market', 'Total Osu Oxford Street']);
    const market = box.items.find((item) => item.name === 'Makola Market')!;
    expect(market).toMatchObject({ lat: 5.549, lng: -0.209, opening_hours: 'Mo-Sa 06:00-18:00' });
    expect(market.provenance).toEqual({ source: 'third_party_match', provider: 'OpenStreetMap', accuracy_meters: 30, confidence: 0.8, verified_at: osmImportedAt });
    expect(box.items.find((item) => item.name === 'GCB Bank Osu')!.provenance).toMatchObject({ accuracy_meters: 10 });
    expect(box.bbox).toEqual({ north: 5.5565, south: 5.545, east: -0.1795, west: -0.21 });
    // Christ the King (5.5575) lies just north of the box.
    expect((await get('/v2/landmarks/geocode?bbox=5.5576,5.545,-0.1795,-0.21')).items.map((item) => item.name)).toContain('Christ the King Church');
  });

  it('geocodes near a point, and has_photo=true keeps only landmarks with a photo', async () => {
    const near = await get('/v2/landmarks/geocode?near=5.59,-0.17');
    expect(near.items[0]).toMatchObject({ name: 'Koala Supermarket', provenance: { source: 'third_party_match' } });
    const photos = await get('/v2/landmarks/geocode?near=5.59,-0.17&has_photo=true');
    expect(photos.items.map((item) => item.name)).toEqual(['Christ the King Church', 'Total Osu Oxford Street']);
    const all = await get('/v2/landmarks/geocode?near=5.59,-0.17&has_photo=false');
    expect(all.items).toHaveLength(4);
    // Makola Market lies 6.3 km away: beyond the default radius of 5 km.
    expect((await get('/v2/landmarks/geocode?near=5.59,-0.17&radius_m=7000')).items).toHaveLength(5);
  });

  it('lists the landmarks near an address code, and inside a larger cell', async () => {
    const address = hexCodeForPoint(5.5561, -0.1821);
    const nearby = await get(`/v2/hexcode/${address}/landmarks`);
    expect(nearby).toMatchObject({ scope: 'nearby', radius_m: 250, resolution: 13 });
    // GCB Bank lies 263 m away: beyond the 250 m of an address cell.
    expect(nearby.items.map((item) => item.name)).toEqual(['Total Osu Oxford Street', 'Christ the King Church']);
    const lower = await get(`/v2/hexcode/${address.toLowerCase()}/landmarks?has_photo=true`);
    expect(lower.items.map((item) => item.name)).toEqual(['Total Osu Oxford Street', 'Christ the King Church']);
    const district = hexCodeForPoint(5.549, -0.209, 7);
    const cell = await get(`/v2/hexcode/${district}/landmarks`);
    expect(cell.scope).toBe('cell');
    expect(cell.items.map((item) => item.name)).toContain('Makola Market');
    expect(cell.items.map((item) => item.name)).not.toContain('Prempeh College');
  });

  it.each([
    ['/v2/landmarks/around?lng=-0.18', 'lat'],
    ['/v2/landmarks/around?lat=95&lng=-0.18', 'lat'],
    ['/v2/landmarks/around?lat=5.5&lng=-181', 'lng'],
    ['/v2/landmarks/around?lat=5.5&lng=abc', 'lng'],
    ['/v2/landmarks/around?lat=5.5&lng=-0.18&radius_m=5001', 'radius_m'],
    ['/v2/landmarks/around?lat=5.5&lng=-0.18&radius_m=0', 'radius_m'],
    ['/v2/landmarks/around?lat=5.5&lng=-0.18&limit=51', 'limit'],
    ['/v2/landmarks/around?lat=5.5&lng=-0.18&has_photo=yes', 'has_photo'],
    ['/v2/landmarks/around?lat=5.5&lng=-0.18&cursor=bm9wZQ', 'cursor'],
    ['/v2/landmarks/around?lat=5.5&lng=-0.18&bbox=1,0,1,0', 'bbox'],
    ['/v2/landmarks/geocode', 'bbox'],
    ['/v2/landmarks/geocode?bbox=5.5,5.6,-0.1,-0.2', 'bbox'],
    ['/v2/landmarks/geocode?bbox=5.6,5.5,-0.2,-0.1', 'bbox'],
    ['/v2/landmarks/geocode?bbox=95,5.5,-0.1,-0.2', 'bbox'],
    ['/v2/landmarks/geocode?bbox=5.6,5.5,-0.1,-190', 'bbox'],
    ['/v2/landmarks/geocode?bbox=7,5,-0.1,-0.2', 'bbox'],
    ['/v2/landmarks/geocode?bbox=5.6,5.5,-0.1', 'bbox'],
    ['/v2/landmarks/geocode?bbox=5.6,5.5,-0.1,-0.2&near=5.5,-0.1', 'bbox'],
    ['/v2/landmarks/geocode?bbox=5.6,5.5,-0.1,-0.2&radius_m=100', 'radius_m'],
    ['/v2/landmarks/geocode?near=5.5', 'near'],
    ['/v2/landmarks/geocode?near=91,0', 'near'],
    ['/v2/landmarks/geocode?near=5.5,-0.1&radius_m=50001', 'radius_m'],
    [`/v2/hexcode/${hexCodeForPoint(5.5, -0.1, 3)}/landmarks`, 'code'],
    [`/v2/hexcode/${hexCodeForPoint(5.5, -0.1)}/landmarks?limit=0`, 'limit'],
  ])('answers 400 naming the field for %s', async (url, field) => {
    const answer = await failure('GET', url);
    expect(answer).toMatchObject({ status: 400, field });
    expect(['INVALID_PARAM', 'INVALID_CODE']).toContain(answer.code);
  });

  it('answers 400 INVALID_CODE for a mistyped hex code', async () => {
    const code = hexCodeForPoint(5.5561, -0.1821);
    const typo = `${code.slice(0, -1)}${code.endsWith('0') ? '1' : '0'}`;
    expect(await failure('GET', `/v2/hexcode/${typo}/landmarks`)).toMatchObject({ status: 400, code: 'INVALID_CODE' });
  });

  it('needs a key for the queries but not for a report', async () => {
    expect((await service.request('GET', '/v2/landmarks/around?lat=5.5&lng=-0.1')).status).toBe(401);
    expect((await report(await slugOf('Koala Supermarket'), '198.51.100.1', { reason: 'other' })).status).toBe(200);
  });

  it('answers 404 in the envelope for an unknown slug and 400 for a bad reason or note', async () => {
    expect(await failure('POST', '/v2/landmarks/nowhere-0000000000/report', { body: { reason: 'other' } })).toMatchObject({ status: 404, code: 'LANDMARK_NOT_FOUND' });
    expect(await failure('POST', '/v2/landmarks/..%2F..%2Fetc/report', { body: { reason: 'other' } })).toMatchObject({ status: 404, code: 'LANDMARK_NOT_FOUND' });
    const slug = await slugOf('GCB Bank Osu');
    expect(await failure('POST', `/v2/landmarks/${slug}/report`, { body: { reason: 'closed' } })).toMatchObject({ status: 400, field: 'reason' });
    expect(await failure('POST', `/v2/landmarks/${slug}/report`, { body: {} })).toMatchObject({ status: 400, field: 'reason' });
    expect(await failure('POST', `/v2/landmarks/${slug}/report`, { body: { reason: 'other', note: 'x'.repeat(501) } })).toMatchObject({ status: 400, field: 'note' });
    expect(await failure('POST', `/v2/landmarks/${slug}/report`, { body: { reason: 'other', reporter: 'me' } })).toMatchObject({ status: 400 });
  });

  it('counts a repeated report once, lets distinct reporters reinforce it, and excludes the landmark from narration at 3 wrong_landmark reporters until reviewed', async () => {
    const slug = await slugOf('Christ the King Church');
    const first = (await (await report(slug, '203.0.113.1')).json()) as { data: Record<string, unknown> };
    expect(first.data).toMatchObject({ slug, counted: true, corroborated_by: 1, narration_status: 'candidate', excluded_from_narration: false, reports: { wrong_landmark: 1 } });
    const repeat = (await (await report(slug, '203.0.113.1', { reason: 'wrong_landmark', note: 'still wrong' })).json()) as { data: Record<string, unknown> };
    expect(repeat.data).toMatchObject({ counted: false, corroborated_by: 1, reports: { wrong_landmark: 1 } });
    // The same account from another network is the same reporter.
    await report(slug, '203.0.113.2', { reason: 'wrong_landmark' }, { 'x-api-key': key });
    const sameAccount = (await (await report(slug, '203.0.113.3', { reason: 'wrong_landmark' }, { 'x-api-key': key })).json()) as { data: Record<string, unknown> };
    expect(sameAccount.data).toMatchObject({ counted: false, corroborated_by: 2, narration_status: 'candidate' });
    const third = (await (await report(slug, '203.0.113.4')).json()) as { data: Record<string, unknown> };
    expect(third.data).toMatchObject({ counted: true, corroborated_by: 3, narration_status: 'excluded_pending_review', excluded_from_narration: true });

    const around = await get('/v2/landmarks/around?lat=5.5575&lng=-0.1835&radius_m=50');
    expect(around.items[0]).toMatchObject({ slug, narration_status: 'excluded_pending_review' });
    const queue = (await (await service.request('GET', '/v2/admin/landmarks/reports', { key: ADMIN_KEY })).json()) as { data: { items: Array<Record<string, unknown>> } };
    expect(queue.data.items).toContainEqual(expect.objectContaining({ slug, narration_status: 'excluded_pending_review', reports: expect.objectContaining({ wrong_landmark: 3 }) }));

    expect((await service.request('POST', `/v2/admin/landmarks/${slug}/review`, { key, body: { decision: 'keep' } })).status).toBe(401);
    expect(await failure('POST', `/v2/admin/landmarks/${slug}/review`, { key: ADMIN_KEY, body: { decision: 'maybe' } })).toMatchObject({ status: 400, field: 'decision' });
    const kept = await service.request('POST', `/v2/admin/landmarks/${slug}/review`, { key: ADMIN_KEY, body: { decision: 'keep' } });
    expect(((await kept.json()) as { data: unknown }).data).toMatchObject({ slug, decision: 'keep', narration_status: 'candidate', excluded_from_narration: false });
    expect((await get('/v2/landmarks/around?lat=5.5575&lng=-0.1835&radius_m=50')).items[0].narration_status).toBe('candidate');
    // After a keep, the reports before it are settled: one new report does not exclude it again.
    const after = (await (await report(slug, '203.0.113.9')).json()) as { data: Record<string, unknown> };
    expect(after.data).toMatchObject({ counted: true, corroborated_by: 1, narration_status: 'candidate', reports: { wrong_landmark: 4 } });
  });

  // Issue 31, item 4 (ADR 0034): one client reporting without its key and then with it is one reporter.
  it('counts one client once whether it reports with or without a key', async () => {
    const slug = await slugOf('Total Osu Oxford Street');
    const body = { reason: 'landmark_gone' };
    expect(((await (await report(slug, '192.0.2.50', body)).json()) as { data: Record<string, unknown> }).data).toMatchObject({ counted: true, corroborated_by: 1 });
    expect(((await (await report(slug, '192.0.2.50', body, { 'x-api-key': key })).json()) as { data: Record<string, unknown> }).data).toMatchObject({ counted: false, corroborated_by: 1 });
    expect(((await (await report(slug, '192.0.2.52', body)).json()) as { data: Record<string, unknown> }).data).toMatchObject({ counted: true, corroborated_by: 2 });
  });

  it('lets the operator exclude a landmark from the command line, and the running service follows', async () => {
    const slug = await slugOf('GCB Bank Osu');
    const { stdout } = await promisify(execFile)(process.execPath, ['scripts/start.mjs', 'ops', 'landmarks:review', slug, 'exclude'], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'test', DATA_DIR: service.dataDir, LOG_LEVEL: 'silent' },
      timeout: 60_000,
    });
    expect(JSON.parse(stdout)).toMatchObject({ slug, decision: 'exclude', narration_status: 'excluded' });
    const deadline = Date.now() + 5000;
    let status = '';
    while (Date.now() < deadline && status !== 'excluded') {
      status = (await get('/v2/landmarks/around?lat=5.555&lng=-0.18&radius_m=20')).items[0].narration_status;
      if (status !== 'excluded') await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(status).toBe('excluded');
  }, 60_000);

  it('throttles reports per IP', async () => {
    const slug = await slugOf('Makola Market');
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await report(slug, '192.0.2.77', { reason: 'other' })).status);
    expect(statuses.slice(0, 10).every((status) => status === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('documents the endpoints in the OpenAPI document and no longer answers 501', async () => {
    const document = (await (await service.request('GET', '/v2/openapi.json')).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
    for (const [url, method] of [
      ['/v2/landmarks/around', 'get'],
      ['/v2/landmarks/geocode', 'get'],
      ['/v2/hexcode/{code}/landmarks', 'get'],
      ['/v2/landmarks/{slug}/report', 'post'],
      ['/v2/admin/landmarks/{slug}/review', 'post'],
    ]) {
      expect(document.paths[url]?.[method]?.responses).toBeDefined();
      expect(document.paths[url][method].responses['501']).toBeUndefined();
    }
  });
});

describe('landmarks of the real Ghana data', () => {
  const geonames = path.join(sharedData, 'ghana-places/geonames_GH.txt');
  const stops = path.join(sharedData, 'accra-osm/overpass-stops.xml');
  const present = existsSync(geonames) && existsSync(stops);
  if (!present) {
    it.skip(`needs ${sharedData} (GeoNames Ghana and the Accra OSM stops); absent in a fresh clone`, () => undefined);
    return;
  }
  let service: Service;
  let key: string;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-landmarks-ghana-'));
    const store = new FileDatasetStore(path.join(dataDir, 'reference'));
    await importGeoNames(store, geonames);
    await importOsm(store, stops, { dataset: 'osm-accra-stops' });
    service = await bootService({ dataDir });
    const signup = await service.request('POST', '/v2/self/signup', { body: { name: 'Ama', email: `ama-${Date.now()}@example.com` } });
    key = ((await signup.json()) as { data: { key: string } }).data.key;
  }, 120_000);
  afterAll(async () => {
    await service?.close();
  });

  it('finds the trotro stops around central Accra, nearest first, and GeoNames hotels in a Kumasi bbox', async () => {
    const around = ((await (await service.request('GET', '/v2/landmarks/around?lat=5.5502&lng=-0.2174&radius_m=1000&limit=20', { key })).json()) as { data: List }).data;
    expect(around.items.length).toBeGreaterThan(3);
    expect(around.items.every((item) => item.distance_m <= 1000)).toBe(true);
    expect(around.items.map((item) => item.distance_m)).toEqual([...around.items.map((item) => item.distance_m)].sort((a, b) => a - b));
    expect(around.items.some((item) => item.kind === 'bus_stop')).toBe(true);
    const kumasi = ((await (await service.request('GET', '/v2/landmarks/geocode?bbox=6.75,6.62,-1.55,-1.7&limit=50', { key })).json()) as { data: List }).data;
    expect(kumasi.items.length).toBeGreaterThan(0);
    expect(kumasi.items.every((item) => item.lat <= 6.75 && item.lat >= 6.62 && item.lng <= -1.55 && item.lng >= -1.7)).toBe(true);
    expect(kumasi.items.every((item) => item.provenance?.provider === 'GeoNames')).toBe(true);
  });
});
