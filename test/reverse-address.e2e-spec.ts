import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importBoundaries, importGeoNames, importOsm } from '../libs/places/src/index.js';
import { importRoads } from '../libs/routing/src/index.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';
import { bootService, eventually, type Service } from './support/boot.js';
import { data, signUp } from './support/http.js';

/** Issue 28, item 7: GET /v2/reverse (and bulk point items) name the place; docs/adr/0014. */
const root = path.resolve(import.meta.dirname, '..');
const fixture = (name: string) => path.join(root, 'libs/places/src/__fixtures__', name);

type Tags = Record<string, string>;
const node = (id: number, lat: number, lng: number, tags: Tags = {}) =>
  `  <node id="${id}" lat="${lat.toFixed(7)}" lon="${lng.toFixed(7)}">${Object.entries(tags).map(([k, v]) => `<tag k="${k}" v="${v}"/>`).join('')}</node>`;
const osm = (body: string[]) => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'location-api-reverse-')), 'fixture.osm');
  writeFileSync(file, `<?xml version="1.0" encoding="UTF-8"?>\n<osm version="0.6">\n${body.join('\n')}\n</osm>\n`);
  return file;
};

// A point in the fixture's Accra Metropolis (Greater Accra), outside the district's hole.
const POINT = { lat: 5.55, lng: -0.21 };
// 10 km east of every landmark, still in Greater Accra, on no district.
const QUIET = { lat: 5.45, lng: 0.3 };

interface Address {
  country: { code: string; name: string } | null;
  region: { name: string; dataset: string; distance_m: number } | null;
  district: { name: string; dataset: string; distance_m: number } | null;
  locality: { name: string; kind: string; dataset: string; distance_m: number } | null;
  road: { name: string; ref: string | null; dataset: string; distance_m: number } | null;
  landmark: { name: string; slug: string; dataset: string; distance_m: number } | null;
  formatted: string | null;
  datasets: Array<{ dataset: string; version: string }>;
}

describe('GET /v2/reverse names the place', () => {
  let service: Service;
  let key: string;

  beforeAll(async () => {
    service = await bootService();
    key = await signUp(service, 'Reverse');
  }, 60_000);
  afterAll(async () => {
    await service?.close();
  });

  const reverse = async (point: { lat: number; lng: number }) => {
    const response = await service.request('GET', `/v2/reverse?lat=${point.lat}&lng=${point.lng}`, { key });
    expect(response.status).toBe(200);
    return data<{ code: string; address: Address }>(response);
  };

  it('before any reference data: every part null, and no label', async () => {
    const { code, address } = await reverse(POINT);
    expect(code).toHaveLength(10);
    expect(address).toEqual({ country: null, region: null, district: null, locality: null, road: null, landmark: null, formatted: null, datasets: [] });
  });

  describe('with boundaries, places and roads loaded', () => {
    beforeAll(async () => {
      const store = new FileDatasetStore(path.join(service.dataDir, 'reference'));
      await importBoundaries(store, [fixture('boundaries-regions.geojson'), fixture('boundaries-districts.geojson')]);
      await importGeoNames(store, fixture('geonames-sample.txt'));
      await importOsm(
        store,
        osm([
          node(1, 5.552, -0.21, { place: 'suburb', name: 'Accra Central' }),
          node(2, 5.5505, -0.2102, { amenity: 'marketplace', name: 'Makola Market' }),
          node(3, 5.56, -0.21, { amenity: 'hospital', name: 'Too Far Clinic' }),
        ]),
      );
      await importRoads(
        store,
        osm([
          node(11, 5.5502, -0.212),
          node(12, 5.5502, -0.208),
          node(13, 5.551, -0.212),
          node(14, 5.551, -0.208),
          '  <way id="21"><nd ref="11"/><nd ref="12"/><tag k="highway" v="service"/></way>',
          '  <way id="22"><nd ref="13"/><nd ref="14"/><tag k="highway" v="secondary"/><tag k="name" v="Kojo Thompson Road"/><tag k="ref" v="R40"/></way>',
        ]),
      );
      await eventually(async () => ((await reverse(POINT)).address.road && (await reverse(POINT)).address.landmark ? true : undefined), 30_000);
    }, 60_000);

    it('names country, region, district, locality, the nearest named road and landmark, each with its dataset and distance, and a one-line label', async () => {
      const { address } = await reverse(POINT);
      expect(address.country).toEqual({ code: 'GH', name: 'Ghana' });
      expect(address.region).toEqual({ name: 'Greater Accra', dataset: 'boundaries', distance_m: 0 });
      expect(address.district).toEqual({ name: 'Accra Metropolis', dataset: 'boundaries', distance_m: 0 });
      expect(address.locality).toMatchObject({ name: 'Accra Central', kind: 'suburb', dataset: 'places/osm' });
      expect(address.locality!.distance_m).toBeGreaterThan(215);
      expect(address.locality!.distance_m).toBeLessThan(230);
      // The unnamed service road is nearer (22 m); the named road is what names the place.
      expect(address.road).toMatchObject({ name: 'Kojo Thompson Road', ref: 'R40', dataset: 'roads' });
      expect(address.road!.distance_m).toBeGreaterThan(105);
      expect(address.road!.distance_m).toBeLessThan(118);
      expect(address.landmark).toMatchObject({ name: 'Makola Market', dataset: 'places/osm', slug: expect.stringMatching(/^makola-market-/) });
      expect(address.landmark!.distance_m).toBeLessThan(70);
      expect(address.formatted).toBe('near Makola Market, Accra Central, Accra Metropolis, Greater Accra');
      expect(address.datasets.map((dataset) => dataset.dataset).sort()).toEqual(['boundaries', 'places/osm', 'roads']);
    });

    it('leaves out what is too far to name the point, and says nothing outside the boundaries', async () => {
      const quiet = (await reverse(QUIET)).address;
      expect(quiet).toMatchObject({ country: { code: 'GH' }, region: { name: 'Greater Accra' }, district: null, locality: null, road: null, landmark: null, formatted: 'Greater Accra' });
      const lagos = (await reverse({ lat: 6.4541, lng: 3.3947 })).address;
      expect(lagos).toEqual({ country: null, region: null, district: null, locality: null, road: null, landmark: null, formatted: null, datasets: [] });
    });

    it('names the point items of POST /v2/hexcode/bulk the same way', async () => {
      const response = await service.request('POST', '/v2/hexcode/bulk', { key, body: { items: [{ ...POINT, id: 'a' }, { code: (await reverse(POINT)).code }] } });
      const { items } = await data<{ items: Array<{ address?: Address }> }>(response);
      expect(items[0].address).toEqual((await reverse(POINT)).address);
      expect(items[1]).not.toHaveProperty('address');
    });
  });
});
