import { cellToLatLng, latLngToCell } from 'h3-js';
import { ADMIN_KEY, bootService, type Service } from './support/boot.js';

/** interface.md, "Addresses, hex codes and search" (lookup, reverse, parse, bulk) and "Provenance object"; ADR 0009. */
describe('hex codes over HTTP', () => {
  let service: Service;
  let key: string;

  beforeAll(async () => {
    service = await bootService();
    const signup = await service.request('POST', '/v2/self/signup', { body: { name: 'Kofi', email: `kofi-${Math.random().toString(36).slice(2)}@example.com` } });
    key = ((await signup.json()) as { data: { key: string } }).data.key;
    // A bulk call counts its items against the quota (issue 31): 4,000 points are more than a free key's day.
    const accountId = ((await (await service.request('GET', '/v2/me', { key })).json()) as { data: { account_id: string } }).data.account_id;
    expect((await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'pro' } })).status).toBe(200);
  });
  afterAll(async () => {
    await service?.close();
  });

  const get = (url: string) => service.request('GET', url, { key });
  const post = (url: string, body: unknown) => service.request('POST', url, { key, body });
  const body = async <T = Record<string, any>>(response: Response): Promise<T> => (await response.json()) as T;
  const SOURCES = ['device_gps', 'geocoded_text', 'third_party_match', 'user_confirmed', 'agent_verified'];

  const isoTime = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

  it('reverses a point to the code of its resolution-13 cell, with the provenance of the point sent (device_gps by default)', async () => {
    const response = await get('/v2/reverse?lat=5.6037&lng=-0.1870');
    expect(response.status).toBe(200);
    const { data } = await body(response);
    const cell = latLngToCell(5.6037, -0.187, 13);
    const [lat, lng] = cellToLatLng(cell);
    expect(data).toMatchObject({ code: '6Q3HQKQ4ZA', display: '6Q3-HQK-Q4ZA', resolution: 13, cell, lat, lng });
    expect(data.distance_m).toBeLessThan(data.provenance.accuracy_meters);
    // No accuracy sent: the cell's radius is a guess, half as sure as a fix with its accuracy (ADR 30; was 1).
    expect(data.provenance).toEqual({ source: 'device_gps', provider: 'caller', accuracy_meters: expect.any(Number), confidence: 0.34, verified_at: isoTime });
    expect(SOURCES).toContain(data.provenance.source);
    expect(data.provenance.accuracy_meters).toBeGreaterThan(3);
    expect(data.provenance.accuracy_meters).toBeLessThan(6);
  });

  it('lets the caller say how the point was established, and how accurate it is', async () => {
    const { data } = await body(await get('/v2/reverse?lat=5.6037&lng=-0.1870&source=agent_verified&accuracy_m=3.5&confirmed_by=agent-17'));
    expect(data.provenance).toMatchObject({ source: 'agent_verified', provider: 'caller', accuracy_meters: 3.5, confidence: 0.8, verified_at: isoTime, confirmed_by: 'agent-17' });
    // A person's confirmation without who gave it is refused (ADR 30: it used to be echoed as claimed).
    for (const source of ['agent_verified', 'user_confirmed']) {
      const bare = await get(`/v2/reverse?lat=5.6037&lng=-0.1870&source=${source}`);
      expect(bare.status).toBe(400);
      expect(await body(bare)).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'confirmed_by' } });
    }
    const refused = await get('/v2/reverse?lat=5.6037&lng=-0.1870&source=guess');
    expect(refused.status).toBe(400);
    expect(await body(refused)).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'source' } });
    expect((await get('/v2/reverse?lat=5.6037&lng=-0.1870&accuracy_m=-1')).status).toBe(400);
  });

  it('codes other resolutions when asked', async () => {
    const { data } = await body(await get('/v2/reverse?lat=6.6978&lng=-1.6232&resolution=9'));
    expect(data.resolution).toBe(9);
    expect(data.code).toHaveLength(8);
    expect(data.cell).toBe(latLngToCell(6.6978, -1.6232, 9));
  });

  it.each([
    ['/v2/reverse?lng=-0.187', 'lat'],
    ['/v2/reverse?lat=&lng=-0.187', 'lat'],
    ['/v2/reverse?lat=north&lng=-0.187', 'lat'],
    ['/v2/reverse?lat=5.6&lng=200', 'lng'],
    ['/v2/reverse?lat=5.6&lng=-0.187&resolution=16', 'resolution'],
    ['/v2/reverse?lat=5.6&lng=-0.187&resolution=1.5', 'resolution'],
  ])('refuses %s naming %s', async (url, field) => {
    const response = await get(url);
    expect(response.status).toBe(400);
    expect(await body(response)).toMatchObject({ success: false, error: { code: 'INVALID_PARAM', field } });
  });

  it('looks a code up in every shape to the centre of its cell', async () => {
    const cell = latLngToCell(5.6037, -0.187, 13);
    const [lat, lng] = cellToLatLng(cell);
    for (const shape of ['6Q3HQKQ4ZA', '6Q3-HQK-Q4ZA', '6q3-hqk-q4za', '6Q3 HQK Q4ZA']) {
      const response = await get(`/v2/lookup?address=${encodeURIComponent(shape)}`);
      expect(response.status).toBe(200);
      const { data } = await body(response);
      expect(data).toMatchObject({ code: '6Q3HQKQ4ZA', display: '6Q3-HQK-Q4ZA', resolution: 13, cell, lat, lng });
      // Issue 26 / ADR 30: confidence by rule (one unconfirmed statement), established by the code scheme, not at the decode.
      expect(data.provenance).toMatchObject({ source: 'geocoded_text', confidence: 0.5, verified_at: '2026-11-22T00:00:00.000Z' });
    }
  });

  it('refuses a mistyped code with INVALID_CODE and names the intended one', async () => {
    const response = await get('/v2/lookup?address=6Q3-HQK-Q4ZB');
    expect(response.status).toBe(400);
    const { error } = await body(response);
    expect(error).toMatchObject({ code: 'INVALID_CODE', field: 'address' });
    expect(error.message).toMatch(/check character/);
    const transposed = await body(await get('/v2/lookup?address=6Q3-QHK-Q4ZA'));
    expect(transposed.error.code).toBe('INVALID_CODE');
  });

  it.each([['U'.repeat(10)], ['12'], ['x'.repeat(60)], ['']])('refuses the unparseable code %j with INVALID_CODE', async (address) => {
    const response = await get(`/v2/lookup?address=${encodeURIComponent(address)}`);
    expect(response.status).toBe(400);
    expect(await body(response)).toMatchObject({ error: { code: 'INVALID_CODE', field: 'address' } });
  });

  it('refuses a lookup without an address, and without a key', async () => {
    const missing = await get('/v2/lookup');
    expect(missing.status).toBe(400);
    expect(await body(missing)).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'address' } });
    const anonymous = await service.request('GET', '/v2/lookup?address=6Q3HQKQ4ZA');
    expect(anonymous.status).toBe(401);
  });

  it.each([
    ['6Q3HQKQ4ZA', 'compact', false],
    ['6Q3-HQK-Q4ZA', 'hyphenated', false],
    ['6q3-hqk-q4za', 'hyphenated', false],
    ['My address is 6Q3-HQK-Q4ZA, near the blue kiosk', 'hyphenated', true],
    ['deliver to 6q3hqkq4za please', 'compact', true],
    ['6Q3 HQK Q4ZA', 'spaced', false],
  ])('parses %j as the hex code (%s)', async (text, shape, embedded) => {
    const response = await post('/v2/address/parse', { text });
    expect(response.status).toBe(200);
    const { data } = await body(response);
    expect(data).toMatchObject({ code: '6Q3HQKQ4ZA', kind: 'hex_code', display: '6Q3-HQK-Q4ZA', resolution: 13, convertible: true });
    expect(data.recognised).toMatchObject({ shape, embedded });
  });

  it('recognises a GhanaPostGPS digital address and says it cannot convert it', async () => {
    const { data } = await body(await post('/v2/address/parse', { text: 'House at ga-123-4567, Osu' }));
    expect(data).toMatchObject({ code: 'GA-123-4567', kind: 'ghanapost_gps', convertible: false, resolution: null, cell: null });
    expect(data.note).toMatch(/cannot/);
  });

  it('decodes what is public about a GhanaPostGPS address, its region, and guesses nothing else (issue 29, item 6)', async () => {
    const accra = (await body(await post('/v2/address/parse', { text: 'House at ga-123-4567, Osu' }))).data.ghanapost_gps;
    expect(accra).toEqual({
      kind: 'ghanapost_gps',
      code: 'GA-123-4567',
      prefix: 'GA',
      region: { letter: 'G', name: 'Greater Accra', current_regions: ['Greater Accra'] },
      district: null,
      point_available: false,
      note: expect.stringMatching(/only GhanaPost’s service .* can give it/),
    });
    const kumasi = (await body(await post('/v2/address/parse', { text: 'AK-485-9323' }))).data.ghanapost_gps;
    expect(kumasi.region).toEqual({ letter: 'A', name: 'Ashanti', current_regions: ['Ashanti'] });
    // A region split in 2019: the old letter, the regions of today.
    expect((await body(await post('/v2/address/parse', { text: 'BA-001-0001' }))).data.ghanapost_gps.region).toMatchObject({ name: 'Brong-Ahafo', current_regions: ['Bono', 'Bono East', 'Ahafo'] });
    // No region has the letter Q: nothing is made up.
    const unknown = (await body(await post('/v2/address/parse', { text: 'QA-123-4567' }))).data.ghanapost_gps;
    expect(unknown).toMatchObject({ region: null, district: null, note: expect.stringMatching(/letter of no GhanaPostGPS region/) });
    expect((await body(await post('/v2/address/parse', { text: '6Q3-HQK-Q4ZA' }))).data.ghanapost_gps).toBeNull();
  });

  it('answers code null for text without a code, and suggestions for a mistyped one', async () => {
    const nothing = await body(await post('/v2/address/parse', { text: 'the house with the mango tree' }));
    expect(nothing.data).toMatchObject({ code: null, kind: null, suggestions: [] });
    const typo = await body(await post('/v2/address/parse', { text: 'at 6Q3-HQK-Q4ZB' }));
    expect(typo.data.code).toBeNull();
    expect(typo.data.suggestions).toContain('6Q3HQKQ4ZA');
  });

  it('refuses a parse body without text, or with too much', async () => {
    for (const payload of [{}, { text: 42 }, { text: 'x'.repeat(2001) }]) {
      const response = await post('/v2/address/parse', payload);
      expect(response.status).toBe(400);
      expect(await body(response)).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'text' } });
    }
  });

  it('codes and decodes thousands of items in one streamed answer; bad items fail alone', async () => {
    const points = Array.from({ length: 4000 }, (_, i) => ({ lat: 4.7 + (i % 100) * 0.06, lng: -3.2 + Math.floor(i / 100) * 0.1, id: `p${i}` }));
    const items: unknown[] = [...points, '6Q3-HQK-Q4ZA', { code: '6q3hqkq4za', id: 7 }, { code: '6Q3-HQK-Q4ZB' }, { lat: 95, lng: 0 }, { lat: 'x', lng: 0 }, 42, { lat: 1, lng: 1, resolution: 3 }];
    const response = await post('/v2/hexcode/bulk', { items });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    // Streamed: no length known up front.
    expect(response.headers.get('content-length')).toBeNull();
    const { success, data } = await body(response);
    expect(success).toBe(true);
    expect(data.count).toBe(items.length);
    expect(data.items).toHaveLength(items.length);
    expect(data.failed).toBe(4);
    data.items.forEach((item: { index: number }, i: number) => expect(item.index).toBe(i));
    for (const i of [0, 1234, 3999]) {
      const point = points[i];
      const reversed = await body(await get(`/v2/reverse?lat=${point.lat}&lng=${point.lng}`));
      expect(data.items[i]).toEqual({ index: i, id: `p${i}`, code: reversed.data.code, display: reversed.data.display, resolution: 13, address: reversed.data.address });
    }
    const [decoded, withId, typo, outOfRange, notANumber, notAnItem, coarse] = data.items.slice(4000);
    expect(decoded).toMatchObject({ code: '6Q3HQKQ4ZA', resolution: 13, lat: expect.any(Number), lng: expect.any(Number), accuracy_meters: expect.any(Number) });
    expect(withId).toMatchObject({ id: 7, code: '6Q3HQKQ4ZA' });
    expect(typo.error).toMatchObject({ code: 'INVALID_CODE', field: 'items[4002].code' });
    expect(typo.error.suggestions).toContain('6Q3HQKQ4ZA');
    expect(outOfRange.error).toMatchObject({ code: 'INVALID_PARAM', field: 'items[4003].lat' });
    expect(notANumber.error).toMatchObject({ code: 'INVALID_PARAM', field: 'items[4004].lat' });
    expect(notAnItem.error).toMatchObject({ code: 'INVALID_PARAM', field: 'items[4005]' });
    expect(coarse).toMatchObject({ resolution: 3 });
    expect(coarse.code).toHaveLength(5);
    expect(data.provenance).toMatchObject({ source: 'geocoded_text', confidence: 0.5, verified_at: '2026-11-22T00:00:00.000Z', accuracy_meters: decoded.accuracy_meters });
  });

  it('refuses a bulk request beyond the documented maximum, or without items', async () => {
    // Above 10,000 items a batch runs as a job (test/jobs.e2e-spec.ts), up to 50,000: more is refused.
    const tooMany = await post('/v2/hexcode/bulk', { items: Array.from({ length: 50_001 }, () => '6Q3HQKQ4ZA') });
    expect(tooMany.status).toBe(400);
    expect(await body(tooMany)).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'items' } });
    for (const payload of [{}, { items: [] }, { items: 'x' }, { items: ['6Q3HQKQ4ZA'], extra: 1 }]) {
      const response = await post('/v2/hexcode/bulk', payload);
      expect(response.status).toBe(400);
      expect((await body(response)).error.code).toBe('INVALID_PARAM');
    }
  });

  it('documents the four endpoints in the OpenAPI document', async () => {
    const document = await body(await service.request('GET', '/v2/openapi.json'));
    expect(document.paths['/v2/lookup'].get.responses['200']).toBeDefined();
    expect(document.paths['/v2/reverse'].get.parameters.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(['lat', 'lng', 'resolution']));
    expect(document.paths['/v2/address/parse'].post).toBeDefined();
    expect(document.paths['/v2/hexcode/bulk'].post.summary).toMatch(/many/);
  });
});
