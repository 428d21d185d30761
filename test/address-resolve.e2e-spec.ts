import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cellToLatLng, gridDisk, gridRingUnsafe, latLngToCell } from 'h3-js';
import { hexCodeFromCell } from '../libs/addressing/src/index.js';
import { importBoundaries, importGeoNames, importOsm } from '../libs/places/src/index.js';
import { bootService, eventually, type Service } from './support/boot.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';

/**
 * interface.md: GET /v2/address/resolve → "result with provenance, label,
 * last_seen_at, meta"; Resources, "Address resolve"; docs/adr/0014.
 */
const root = path.resolve(import.meta.dirname, '..');
const fixture = (name: string) => path.join(root, 'libs/places/src/__fixtures__', name);

// A default-resolution cell in Accra with a pharmacy inside it and a chop bar in the next cell.
const cell = latLngToCell(5.57, -0.21, 13);
const code = hexCodeFromCell(cell);
const [neighbour] = gridDisk(cell, 1).filter((other) => other !== cell);
const [farCell] = gridRingUnsafe(cell, 3);
const emptyCode = hexCodeFromCell(latLngToCell(5.3, -0.5, 13));

function osmFixture(): string {
  const node = (id: number, [lat, lng]: number[], tags: Record<string, string>) =>
    `  <node id="${id}" lat="${lat.toFixed(7)}" lon="${lng.toFixed(7)}">\n${Object.entries(tags)
      .map(([k, v]) => `    <tag k="${k}" v="${v}"/>`)
      .join('\n')}\n  </node>`;
  const [lat, lng] = cellToLatLng(cell);
  const nodes = [
    node(1, [5.536, -0.227], { amenity: 'hospital', name: 'Korle Bu Teaching Hospital' }),
    node(501, [lat + 0.000005, lng], { amenity: 'pharmacy', name: 'Blue Gate Pharmacy' }),
    node(502, cellToLatLng(neighbour), { amenity: 'restaurant', name: 'Mama Ama Chop Bar' }),
    node(503, [lat, lng + 0.000005], { place: 'neighbourhood', name: 'Resolve Lane' }),
    node(504, cellToLatLng(farCell), { shop: 'hairdresser', name: 'Too Far Salon' }),
  ];
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'location-api-resolve-osm-')), 'resolve.osm');
  writeFileSync(file, `<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6">\n${nodes.join('\n')}\n</osm>\n`);
  return file;
}

interface Point {
  label: string;
  kind: string;
  lat: number;
  lng: number;
  code: string;
  in_cell: boolean | null;
  last_seen_at: string | null;
  provenance: { source: string; accuracy_meters: number; confidence: number; verified_at: string };
}
interface Answer {
  lat: number;
  lng: number;
  code: string;
  display: string;
  resolution: number;
  precision: string;
  label: string | null;
  last_seen_at: string | null;
  provenance: { source: string; provider: string; accuracy_meters: number; confidence: number; verified_at: string };
  points: Point[];
  meta: Record<string, unknown> & { datasets: Array<{ dataset: string; version: string; imported_at: string }>; alternatives: Array<{ label: string }> };
}

describe('GET /v2/address/resolve', () => {
  let service: Service;
  let key: string;
  let osmImportedAt: string;

  beforeAll(async () => {
    service = await bootService();
    const signup = await service.request('POST', '/v2/self/signup', { body: { name: 'Esi', email: `esi-${Date.now()}@example.com` } });
    key = ((await signup.json()) as { data: { key: string } }).data.key;
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  const resolve = (address: string) => service.request('GET', `/v2/address/resolve?address=${encodeURIComponent(address)}`, { key });
  const answer = async (address: string): Promise<Answer> => {
    const response = await resolve(address);
    const body = (await response.json()) as { data: Answer; error?: unknown };
    expect({ status: response.status, error: body.error }).toEqual({ status: 200, error: undefined });
    return body.data;
  };
  const failure = async (query: string) => {
    const response = await service.request('GET', `/v2/address/resolve?${query}`, { key });
    const body = (await response.json()) as { success: boolean; error: { code: string; field?: string; message: string; details?: Record<string, unknown> } };
    return { status: response.status, success: body.success, ...body.error };
  };

  describe('before any place dataset is imported', () => {
    it('still resolves a code to its cell, and says it could not look for structures', async () => {
      const result = await answer(code);
      expect(result).toMatchObject({ code, precision: 'cell', label: null, last_seen_at: null, points: [] });
      expect(result.meta).toMatchObject({ structure_search_skipped: 'dataset_not_loaded', datasets: [] });
    });

    it('answers text with 503 DATASET_NOT_LOADED, as search does', async () => {
      expect(await failure('address=Kumasi')).toMatchObject({ status: 503, code: 'DATASET_NOT_LOADED' });
    });
  });

  describe('with places imported', () => {
    beforeAll(async () => {
      const store = new FileDatasetStore(path.join(service.dataDir, 'reference'));
      await importBoundaries(store, [fixture('boundaries-regions.geojson'), fixture('boundaries-districts.geojson')]);
      await importGeoNames(store, fixture('geonames-sample.txt'));
      osmImportedAt = (await importOsm(store, osmFixture())).version.manifest.imported_at;
      await eventually(async () => {
        const response = await service.request('GET', '/v2/search?q=Blue+Gate+Pharmacy', { key });
        return response.status === 200 && ((await response.json()) as { data: { items: unknown[] } }).data.items.length > 0 ? true : undefined;
      }, 15_000);
    }, 60_000);

    it('resolves a code to its cell centre, named by the structure in it, with the ones next to it as points', async () => {
      const [lat, lng] = cellToLatLng(cell);
      const result = await answer(code);
      expect(result).toMatchObject({ lat, lng, code, resolution: 13, precision: 'structure', label: 'Blue Gate Pharmacy', last_seen_at: osmImportedAt });
      // A decoded cell centre (issue 26 / ADR 30): confidence by rule, not 1; established by the code scheme, not by this answer.
      expect(result.provenance).toMatchObject({ source: 'geocoded_text', confidence: 0.5, verified_at: '2026-11-22T00:00:00.000Z' });
      expect(result.points.map((point) => [point.label, point.in_cell])).toEqual([
        ['Blue Gate Pharmacy', true],
        ['Mama Ama Chop Bar', false],
      ]);
      for (const point of result.points) {
        expect(point).toMatchObject({ last_seen_at: osmImportedAt, provenance: { source: 'third_party_match', verified_at: osmImportedAt } });
        expect(point.code).toBe(hexCodeFromCell(latLngToCell(point.lat, point.lng, 13)));
      }
      expect(result.meta).toMatchObject({
        input_kind: 'hex_code',
        matched_by: 'code',
        structure_search_skipped: null,
        last_seen_basis: 'dataset_import',
        attribution: ['© OpenStreetMap contributors'],
      });
      expect(result.meta.candidates_considered).toBeGreaterThanOrEqual(3);
      expect(result.meta.datasets.map((dataset) => dataset.dataset).sort()).toEqual(['places/geonames', 'places/osm']);
    });

    it('accepts every shape of the code, also inside other text', async () => {
      const display = `${code.slice(0, 3)}-${code.slice(3, 6)}-${code.slice(6)}`;
      for (const shape of [display, display.toLowerCase(), code.toLowerCase(), `Deliver to ${display}, the blue gate`]) {
        const result = await answer(shape);
        expect(result).toMatchObject({ code, display, label: 'Blue Gate Pharmacy' });
      }
      expect((await answer(`Deliver to ${display}, the blue gate`)).meta).toMatchObject({ matched_by: 'code_in_text', matched_text: display });
    });

    it('has cell precision where no structure stands, and skips structures for a coarse code', async () => {
      expect(await answer(emptyCode)).toMatchObject({ precision: 'cell', label: null, last_seen_at: null, points: [], meta: { structure_search_skipped: null } });
      const coarse = await answer(hexCodeFromCell(latLngToCell(5.57, -0.21, 8)));
      expect(coarse).toMatchObject({ resolution: 8, precision: 'cell', meta: { structure_search_skipped: 'resolution_too_coarse' } });
    });

    it('resolves the name of a structure to it, with structure precision', async () => {
      const result = await answer('Korle Bu Teaching Hospital');
      expect(result).toMatchObject({ lat: 5.536, lng: -0.227, precision: 'structure', label: 'Korle Bu Teaching Hospital', last_seen_at: osmImportedAt });
      expect(result.provenance).toMatchObject({ source: 'geocoded_text', verified_at: osmImportedAt });
      expect(result.points).toEqual([expect.objectContaining({ label: 'Korle Bu Teaching Hospital', last_seen_at: osmImportedAt })]);
      expect(result.code).toBe(hexCodeFromCell(latLngToCell(5.536, -0.227, 13)));
      expect(result.meta).toMatchObject({ input_kind: 'text', matched_by: 'place_search', text_match: 'exact' });
    });

    it('resolves a place name to the place, and a misspelling with did_you_mean', async () => {
      const geonamesImportedAt = (await new FileDatasetStore(path.join(service.dataDir, 'reference')).current('places/geonames'))!.manifest.imported_at;
      const kumasi = await answer('Kumasi');
      expect(kumasi).toMatchObject({ precision: 'place', label: 'Kumasi', last_seen_at: geonamesImportedAt, points: [] });
      expect(kumasi.meta).toMatchObject({ attribution: ['GeoNames (geonames.org), CC BY 4.0'] });
      const typo = await answer('Kumsai');
      expect(typo).toMatchObject({ label: 'Kumasi', meta: { did_you_mean: 'Kumasi', text_match: 'fuzzy' } });
      expect(typo.provenance.confidence).toBeLessThan(kumasi.provenance.confidence);
    });

    it('takes a letters-only word for a place when one matches, and for the code it also is otherwise', async () => {
      let lettersOnly = '';
      // About one code in forty has no digit; codes of nearby cells share their first characters, so look all over the globe.
      for (let i = 0; lettersOnly === ''; i++) {
        const candidate = hexCodeFromCell(latLngToCell(((i * 7.31) % 160) - 80, ((i * 13.7) % 360) - 180, 13));
        if (/^[A-Z]+$/.test(candidate)) lettersOnly = candidate;
      }
      const asCode = await answer(lettersOnly.toLowerCase());
      expect(asCode).toMatchObject({ code: lettersOnly, precision: 'cell', meta: { input_kind: 'hex_code', matched_by: 'code' } });
      expect((await answer('Madina')).meta).toMatchObject({ input_kind: 'text' });
    });

    it('states what the data covers, and says so when the text names a well-known place outside it', async () => {
      expect((await answer('Kumasi')).meta).toMatchObject({ coverage: { countries: ['GH'] }, outside_coverage: null });
      expect((await answer('0QP-PAN-VTWH')).meta).toMatchObject({ coverage: { countries: ['GH'] }, outside_coverage: null });
      // No Lagos in these places: the 404 names the country instead of a bare "not found".
      const lagos = await failure('address=Lagos%2C+Nigeria');
      expect(lagos).toMatchObject({ status: 404, code: 'ADDRESS_NOT_FOUND', details: { outside_coverage: { name: 'Lagos', country: 'NG' } } });
      expect(lagos.message).toMatch(/Nigeria, outside the data's coverage/);
    });

    it('answers 404 ADDRESS_NOT_FOUND for text no place matches', async () => {
      expect(await failure('address=Qwzx+Vbnmp')).toMatchObject({ status: 404, success: false, code: 'ADDRESS_NOT_FOUND', field: 'address' });
    });

    it('refuses a GhanaPostGPS address with 422 ADDRESS_NOT_CONVERTIBLE', async () => {
      const answer = await failure(`address=${encodeURIComponent('GA-123-4567')}`);
      expect(answer).toMatchObject({ status: 422, code: 'ADDRESS_NOT_CONVERTIBLE', field: 'address', details: { kind: 'ghanapost_gps', code: 'GA-123-4567' } });
      expect(answer.message).toMatch(/GhanaPostGPS/);
      // Issue 29, item 6: the region from the prefix, said plainly that the point needs GhanaPost's own service.
      expect(answer.details).toMatchObject({ prefix: 'GA', region: { name: 'Greater Accra' }, district: null, point_available: false });
      expect(answer.message).toMatch(/in the Greater Accra region .* only GhanaPost's service can give it/);
    });

    it('refuses a mistyped code with INVALID_CODE, its reason and suggestions in error.details', async () => {
      const typo = `${code.slice(0, -1)}${code.endsWith('0') ? '1' : '0'}`;
      const answer = await failure(`address=${typo}`);
      expect(answer).toMatchObject({ status: 400, code: 'INVALID_CODE', field: 'address', details: { reason: 'check_failed' } });
      expect(answer.details?.suggestions).toContain(code);
    });

    it.each([
      ['', 'address'],
      ['address=', 'address'],
      ['address=%20%20', 'address'],
      [`address=${'a'.repeat(201)}`, 'address'],
      ['address=%21%21%21', 'address'],
      ['address=Kumasi&address=Accra', 'address'],
      ['address=Kumasi&limit=3', 'limit'],
    ])('answers 400 INVALID_PARAM naming the field for %j', async (query, field) => {
      expect(await failure(query)).toMatchObject({ status: 400, code: 'INVALID_PARAM', field });
    });

    it('never answers 5xx to odd input', async () => {
      const odd = ['\u0000', '🙂', 'GA-123-45678', '6Q3-HQK', '----', 'a-b-c-d-e-f', '%', 'ga 123 4567 6q3hqkq4za', 'Ü'.repeat(200), '12345678901', 'accra '.repeat(12), 'x\u0301'.repeat(40), '6Q3HQKQ4ZA'.repeat(3)];
      for (const address of odd) {
        const response = await resolve(address);
        const body = (await response.json()) as { success: boolean; error?: { code: string } };
        expect({ address, status: response.status < 500, envelope: typeof body.success }).toEqual({ address, status: true, envelope: 'boolean' });
      }
    });

    it('needs a key, and is in the OpenAPI document', async () => {
      expect((await service.request('GET', `/v2/address/resolve?address=${code}`)).status).toBe(401);
      const document = (await (await service.request('GET', '/v2/openapi.json')).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
      expect(Object.keys(document.paths['/v2/address/resolve'].get.responses).sort()).toEqual(['200', '400', '401', '404', '422', '429', '503']);
    });
  });
});

describe('error details on other code endpoints', () => {
  it('GET /v2/lookup sends INVALID_CODE with details {reason, suggestions}', async () => {
    const service = await bootService();
    try {
      const signup = await service.request('POST', '/v2/self/signup', { body: { name: 'Kwame', email: `kwame-${Date.now()}@example.com` } });
      const key = ((await signup.json()) as { data: { key: string } }).data.key;
      const typo = await (await service.request('GET', '/v2/lookup?address=6Q3-HQK-Q4ZB', { key })).json();
      expect(typo).toMatchObject({ success: false, error: { code: 'INVALID_CODE', field: 'address', details: { reason: 'check_failed' } } });
      expect((typo as { error: { details: { suggestions: string[] } } }).error.details.suggestions).toContain('6Q3HQKQ4ZA');
      const long = await (await service.request('GET', `/v2/lookup?address=${'x'.repeat(60)}`, { key })).json();
      expect(long).toMatchObject({ error: { code: 'INVALID_CODE', details: { reason: 'too_long', suggestions: [] } } });
      // Errors without particulars carry no details member.
      const missing = (await (await service.request('GET', '/v2/lookup', { key })).json()) as { error: Record<string, unknown> };
      expect(missing.error).not.toHaveProperty('details');
    } finally {
      await service.close();
    }
  }, 60_000);
});
