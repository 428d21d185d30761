import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocationSealing } from '../libs/monitoring/src/testing/location-streams.js';
import { AICD_ATTRIBUTION, BACKBONE_DATASET, importRoads, IsochroneService } from '../libs/routing/src/index.js';
import { bootService, eventually, type Service } from './support/boot.js';
import { signUp } from './support/http.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';

/**
 * Issue 29, "All of Ghana on the road network" (docs/adr/0035): the starter
 * pack's two road layers — Accra's OSM streets and the national AICD backbone —
 * combined into one graph, over HTTP: intercity routes by car and by okada,
 * the datasets and both attributions named, an isochrone fence in Kumasi, and
 * snapping that says how far it moved a point.
 */
const root = path.resolve(import.meta.dirname, '..');
const starter = (file: string) => path.join(root, 'starter/ghana', file);

interface Leg {
  distance_m: number;
  snapped_from: { lat: number; lng: number };
  snapped_to: { lat: number; lng: number };
  snap_distance_from_m: number;
  snap_distance_to_m: number;
}
interface Answer {
  mode: string;
  distance_m: number;
  duration_s: number;
  geometry: { coordinates: Array<[number, number]> };
  legs: Leg[];
  steps: Array<{ name: string }>;
  has_unpaved?: boolean;
  unpaved_distance_m: number;
  warnings: string[];
  datasets: Array<{ dataset: string; version: string; attribution: string[] }>;
  attribution: string[];
}

const ACCRA = { lat: 5.5697, lng: -0.2167 }; // Kwame Nkrumah Circle, on the OSM streets
const KUMASI = { lat: 6.69, lng: -1.62 };
const TAMALE = { lat: 9.4, lng: -0.85 };
const TAKORADI = { lat: 4.9, lng: -1.76 };
const CAPE_COAST = { lat: 5.11, lng: -1.25 };

describe('intercity routing on the starter pack (backbone + Accra streets)', () => {
  let service: Service;
  let key: string;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-intercity-'));
    const store = new FileDatasetStore(path.join(dataDir, 'reference'));
    await importRoads(store, starter('roads/roads.osm.gz'));
    await importRoads(store, starter('roads/ghana-backbone.osm.gz'), {}, BACKBONE_DATASET);
    service = await bootService({ dataDir });
    key = await signUp(service, 'Kofi');
    await eventually(async () => ((await fetch(`${service.url}/health`)).status === 200 ? true : undefined), 60_000);
  }, 120_000);
  afterAll(async () => {
    await service?.close();
  });

  const route = async (body: Record<string, unknown>, expected = 200) => {
    const response = await service.request('POST', '/v2/route', { key, body });
    const json = (await response.json()) as { data: Answer; error: { code: string; details?: Record<string, unknown> } };
    expect({ status: response.status, error: json.error }).toMatchObject({ status: expected });
    return json;
  };

  it.each([
    ['Accra', 'Kumasi', ACCRA, KUMASI, 230_000, 300_000],
    ['Accra', 'Tamale', ACCRA, TAMALE, 550_000, 750_000],
    ['Takoradi', 'Cape Coast', TAKORADI, CAPE_COAST, 55_000, 100_000],
  ])('routes %s → %s by car and by okada', async (_from, _to, from, to, min, max) => {
    for (const mode of ['driving', 'okada']) {
      const { data } = await route({ from, to, mode });
      expect(data.distance_m).toBeGreaterThan(min);
      expect(data.distance_m).toBeLessThan(max);
      // Surfaces are known nationwide (the backbone tags them), so has_unpaved is said, and the unpaved share is real.
      expect(typeof data.has_unpaved).toBe('boolean');
      expect(data.unpaved_distance_m).toBeLessThanOrEqual(data.distance_m);
      expect(data.attribution).toContain(AICD_ATTRIBUTION);
      console.log(`${_from} → ${_to} by ${mode}: ${(data.distance_m / 1000).toFixed(1)} km, ${(data.duration_s / 3600).toFixed(2)} h, unpaved ${(data.unpaved_distance_m / 1000).toFixed(1)} km`);
    }
  });

  it('routes an okada and a walker from Accra to Tema, which only a car could reach before (the motorway is closed to them)', async () => {
    const TEMA = { lat: 5.6698, lng: -0.0166 };
    const car = (await route({ from: ACCRA, to: TEMA })).data;
    for (const mode of ['okada', 'walking']) {
      const { data } = await route({ from: ACCRA, to: TEMA, mode });
      // Longer than the car's motorway route: around it on roads the mode may use.
      expect(data.distance_m).toBeGreaterThan(car.distance_m);
    }
  });

  it('leaves Accra on the OSM streets and reaches Kumasi on the N6, naming both datasets and both attributions', async () => {
    const { data } = await route({ from: ACCRA, to: KUMASI });
    expect(data.datasets.map((dataset) => dataset.dataset).sort()).toEqual(['roads', 'roads-backbone']);
    expect(data.attribution).toEqual(expect.arrayContaining(['© OpenStreetMap contributors', AICD_ATTRIBUTION]));
    // Named Accra streets first, the N6 later.
    expect(data.steps.some((step) => step.name.includes('N6'))).toBe(true);
    const okada = (await route({ from: ACCRA, to: KUMASI, mode: 'okada' })).data;
    expect(okada.duration_s).toBeGreaterThan(data.duration_s);
    // A trip outside Accra runs on the backbone alone, and says so.
    const west = (await route({ from: TAKORADI, to: CAPE_COAST })).data;
    expect(west.datasets.map((dataset) => dataset.dataset)).toEqual(['roads-backbone']);
    expect(west.attribution).toEqual([AICD_ATTRIBUTION]);
  });

  it('reports how far each leg end was moved; over 100 m a warning names the distance', async () => {
    const near = (await route({ from: ACCRA, to: KUMASI })).data;
    expect(near.legs[0].snap_distance_from_m).toBeLessThan(100);
    expect(near.warnings.some((warning) => /moved/.test(warning) && /^from /.test(warning))).toBe(false);
    // A point about 300 m north of the N10 in open country between Kumasi and Tamale.
    const road = (await route({ from: KUMASI, to: TAMALE })).data;
    const [lng, lat] = road.geometry.coordinates[Math.floor(road.geometry.coordinates.length / 2)];
    const off = { lat: lat + 300 / 111_000, lng };
    const { data } = await route({ from: off, to: TAMALE });
    const moved = data.legs[0].snap_distance_from_m;
    expect(moved).toBeGreaterThan(100);
    expect(moved).toBeLessThanOrEqual(305);
    expect(data.warnings).toContain(`from was moved ${moved} m to the nearest road a driving route may use`);
    // Beyond the snap limit (at sea off Cape Coast), the error as before.
    const far = await route({ from: { lat: 4.9, lng: -1.25 }, to: TAMALE }, 422);
    expect(far.error.code).toBe('NO_ROAD_NEARBY');
  });

  it('fires a geofence breach for a ping inside an isochrone fence in Kumasi', async () => {
    const created = await service.request('POST', '/v2/geofence/create', {
      key,
      body: { fence_type: 'isochrone', center: KUMASI, minutes: 10, mode: 'driving', customer_id: 'trader-1', name: 'Kumasi, 10 minutes' },
    });
    expect(created.status).toBe(201);
    const fence = ((await created.json()) as { data: { id: string } }).data;
    const area = await service.app.get(IsochroneService).isochrone({ center: KUMASI, minutes: 10, mode: 'driving' });
    await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: 'trader-1' } });
    const breaches = async () => (await service.runtime.backends.events.readAll({ maxCount: 100_000 })).filter((event) => event.type === 'GeofenceEntered');
    const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();
    // Far outside (Tamale): nothing; at the fence's snapped centre: one breach naming the fence.
    expect((await service.request('POST', '/v2/monitoring/pings', { key, body: { customer_id: 'trader-1', ...TAMALE, recorded_at: at(20) } })).status).toBeLessThan(300);
    expect(await breaches()).toHaveLength(0);
    expect((await service.request('POST', '/v2/monitoring/pings', { key, body: { customer_id: 'trader-1', lat: area.snapped.lat, lng: area.snapped.lng, recorded_at: at(10) } })).status).toBeLessThan(300);
    const fired = await breaches();
    expect(fired).toHaveLength(1);
    expect((await new LocationSealing(service.runtime.backends.dataKeys).open(fired[0]))?.data).toMatchObject({ fence_id: fence.id, fence_type: 'isochrone', customer_id: 'trader-1' });
  });
});
