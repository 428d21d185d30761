import { createServer, type Server } from 'node:http';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { importRoads } from '../libs/routing/src/index.js';
import { weatherImportCli } from '../libs/weather/src/index.js';
import { bootService, eventually, type Service } from './support/boot.js';
import { signUp } from './support/http.js';
import { writeFileSync } from 'node:fs';
import { capAlert } from './support/cap-alert.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';

/**
 * Issue #16, "Weather" and "Safer routes", done means: import the CAP files
 * and see alerts; with a local forecast provider (speaking the Open-Meteo
 * shape) see the point cloud, `rain_note` and a recommended safer route.
 */
const root = path.resolve(import.meta.dirname, '..');
const capDir = path.resolve(root, '../shared/data/cap');
const roads = path.join(root, 'libs/routing/src/__fixtures__/wet-crossing.osm');

interface Feature {
  geometry: { type: string; coordinates: unknown } | null;
  properties: Record<string, unknown>;
}
interface Route {
  duration_s: number;
  summary: string;
  recommended: boolean;
  recommend_reason: string | null;
  flood_crossings: number;
  rain_note: string | null;
  rain_eta_penalty_s: number;
  alternatives: Route[];
}

/** A forecast API in the Open-Meteo shape: every point 80 % and 4 mm each hour. */
function openMeteoStub(): Promise<{ server: Server; url: string; calls: URL[] }> {
  const calls: URL[] = [];
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stub');
    if (url.pathname === '/alerts.atom') {
      // A CAP hub's feed with nothing in force (issue 29, item 7: polled, so an empty list means no alerts).
      response.setHeader('content-type', 'application/atom+xml');
      response.end('<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><title>hub</title><id>urn:hub</id><updated>2026-01-01T00:00:00Z</updated></feed>');
      return;
    }
    calls.push(url);
    const latitudes = (url.searchParams.get('latitude') ?? '').split(',').map(Number);
    const longitudes = (url.searchParams.get('longitude') ?? '').split(',').map(Number);
    const hours = Number(url.searchParams.get('forecast_hours') ?? 24);
    const start = Math.floor(Date.now() / 3_600_000) * 3600;
    const locations = latitudes.map((latitude, index) => ({
      latitude,
      longitude: longitudes[index],
      hourly_units: { time: 'unixtime', precipitation_probability: '%', precipitation: 'mm' },
      hourly: {
        time: Array.from({ length: hours }, (_, hour) => start + hour * 3600),
        // The cloud is ordered by chance: the western points are wetter.
        precipitation_probability: Array.from({ length: hours }, (_, hour) => (longitudes[index] < -0.2 ? 90 : 80) - hour),
        precipitation: Array.from({ length: hours }, () => 4),
      },
    }));
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify(locations.length === 1 ? locations[0] : locations));
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls })));
}

describe('weather and safer routes', () => {
  let service: Service;
  let bare: Service;
  let stub: Awaited<ReturnType<typeof openMeteoStub>>;
  let key: string;

  beforeAll(async () => {
    stub = await openMeteoStub();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-weather-'));
    await importRoads(new FileDatasetStore(path.join(dataDir, 'reference')), roads);
    service = await bootService({ dataDir, env: { PRECIPITATION_FORECAST_URL: stub.url, WEATHER_CAP_FEEDS: `${stub.url}/alerts.atom?token=hub-secret` } });
    bare = await bootService();
    key = await signUp(service, 'Esi');
    await eventually(async () => ((await fetch(`${service.url}/health`)).status === 200 ? true : undefined), 30_000);
  }, 90_000);
  afterAll(async () => {
    await service?.close();
    await bare?.close();
    stub?.server.close();
  });

  const alerts = async (query: string) => {
    const response = await service.request('GET', `/v2/weather/alerts${query}`);
    expect(response.status).toBe(200);
    return ((await response.json()) as { data: { type: string; features: Feature[] } }).data;
  };

  (existsSync(capDir) ? it : it.skip)('imports the CAP files with ops weather:import and lists them, public, by point and box, until they expire', async () => {
    const lines: string[] = [];
    const files = ['tg_valid.xml', 'bf_valid.xml', 'sc_valid.xml'].map((name) => path.join(capDir, name));
    expect(await weatherImportCli(service.dataDir, files, (line) => lines.push(line))).toBe(0);
    expect(lines[0]).toBe('weather:import: 3 alert(s) added, 0 already known, 0 refused');
    // Again: nothing new.
    expect(await weatherImportCli(service.dataDir, files, () => {})).toBe(0);

    const togo = await alerts('?at=2024-06-06T18:00:00Z&lat=6.1319&lng=1.2228');
    expect(togo.type).toBe('FeatureCollection');
    expect(togo.features).toHaveLength(1);
    expect(togo.features[0].geometry?.type).toBe('MultiPolygon');
    expect(togo.features[0].properties).toMatchObject({ event: 'Rain/Wet Spell', severity: 'Severe', urgency: 'Immediate', certainty: 'Observed', expires: '2024-06-06T22:00:00.000Z', signature: 'valid' });
    expect(togo.features[0].properties).toHaveProperty('headline');
    expect(togo.features[0].properties.instruction).toMatch(/inondations/);
    expect((await alerts('?at=2024-06-06T18:00:00Z&bbox=0,6,2,7')).features.map((feature) => feature.properties.event)).toEqual(['Rain/Wet Spell']);
    // The interface's order, north,south,east,west (docs/adr/0036), the same box; the old order above still works, and says it is deprecated.
    const northSouthEastWest = await alerts('?at=2024-06-06T18:00:00Z&bbox=7,6,2,0');
    expect(northSouthEastWest.features.map((feature) => feature.properties.event)).toEqual(['Rain/Wet Spell']);
    expect(northSouthEastWest).not.toHaveProperty('warnings');
    expect(await alerts('?at=2024-06-06T18:00:00Z&bbox=0,6,2,7')).toMatchObject({ warnings: [expect.stringMatching(/deprecated.*north,south,east,west/)] });
    // Past expires they drop out; today they all have.
    expect((await alerts('?at=2024-06-06T23:00:00Z&lat=6.1319&lng=1.2228')).features).toEqual([]);
    expect((await alerts('')).features).toEqual([]);
  });

  it('refuses a tampered or invalid CAP file and keeps the others', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cap-'));
    const good = path.join(dir, 'good.xml');
    const bad = path.join(dir, 'bad.xml');
    const until = new Date(Date.now() + 3 * 3_600_000).toISOString().replace(/\.\d+Z$/, '+00:00');
    writeFileSync(good, capAlert({ identifier: 'E2E-1', event: 'Heavy Rain', expires: until }));
    writeFileSync(bad, capAlert({ identifier: 'E2E-2' }).replace('<status>Actual</status>', '<status>Maybe</status>'));
    const lines: string[] = [];
    expect(await weatherImportCli(service.dataDir, [good, bad], (line) => lines.push(line))).toBe(1);
    expect(lines[1]).toMatch(/refused .*bad\.xml: CAP schema: line 4: Element 'cap:status': .*'Maybe'/);
    if (existsSync(capDir)) {
      // A real signed alert altered after signing: refused, the reason printed.
      const tampered = path.join(dir, 'tampered.xml');
      writeFileSync(tampered, readFileSync(path.join(capDir, 'sc_valid.xml'), 'utf8').replace('<severity>Moderate</severity>', '<severity>Extreme</severity>'));
      const refused: string[] = [];
      expect(await weatherImportCli(service.dataDir, [tampered], (line) => refused.push(line))).toBe(1);
      expect(refused[1]).toMatch(/refused .*tampered\.xml: CAP: the XML signature does not verify/);
    }
    const now = await alerts('?lat=5.6037&lng=-0.187');
    expect(now.features.map((feature) => feature.properties.identifier)).toEqual(['E2E-1']);
  });

  it('answers bad filters with 400 naming the field', async () => {
    for (const [query, field] of [['?bbox=1,2,3', 'bbox'], ['?lat=5.6', 'lng'], ['?lat=95&lng=0', 'lat'], ['?at=yesterday', 'at']]) {
      const response = await service.request('GET', `/v2/weather/alerts${query}`);
      expect([query, response.status]).toEqual([query, 400]);
      expect(((await response.json()) as { error: { field: string } }).error.field).toBe(field);
    }
  });

  it('says when no CAP feed is configured, so an empty list is not read as "no alerts" (issue 29, item 7)', async () => {
    const response = await bare.request('GET', '/v2/weather/alerts');
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: Record<string, unknown> };
    expect(data).toMatchObject({ type: 'FeatureCollection', features: [], configured: false, feeds: [], imported: false });
    expect(data.note).toMatch(/No CAP alert feed is configured.*does not mean that no alert is in force/);
  });

  it('lists the polled feeds with their last successful poll, without their query string', async () => {
    const polled = await eventually(async () => {
      const { data } = (await (await service.request('GET', '/v2/weather/alerts')).json()) as { data: { configured: boolean; feeds: Array<Record<string, unknown>> } };
      return data.feeds[0]?.last_success_at ? data : undefined;
    }, 15_000);
    expect(polled.configured).toBe(true);
    expect(polled).not.toHaveProperty('note');
    expect(polled.feeds).toEqual([{ feed: `${stub.url}/alerts.atom`, last_attempt_at: expect.any(String), last_success_at: expect.any(String), last_error: null }]);
    expect(Date.parse(polled.feeds[0].last_success_at as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(polled)).not.toContain('hub-secret');
  });

  it('reads the forecast bbox as north,south,east,west, and the deprecated minLng,minLat,maxLng,maxLat with a warning (issue 28, item 6)', async () => {
    const read = async (bbox: string) => {
      const response = await service.request('GET', `/v2/precipitation-forecast?bbox=${bbox}`);
      expect(response.status).toBe(200);
      return ((await response.json()) as { data: { features: Feature[]; warnings?: string[] } }).data;
    };
    const current = await read('5.7,5.5,-0.1,-0.3');
    const legacy = await read('-0.3,5.5,-0.1,5.7');
    expect(current.features).toHaveLength(25);
    expect(current).not.toHaveProperty('warnings');
    const corners = (cloud: { features: Feature[] }) => cloud.features.map((feature) => JSON.stringify(feature.geometry?.coordinates)).sort();
    expect(corners(legacy)).toEqual(corners(current));
    for (const feature of current.features) {
      const [lng, lat] = feature.geometry!.coordinates as number[];
      expect([lat > 5.5 && lat < 5.7, lng > -0.3 && lng < -0.1]).toEqual([true, true]);
    }
    expect(legacy.warnings).toEqual([expect.stringMatching(/minLng,minLat,maxLng,maxLat.*deprecated.*north,south,east,west/)]);
    const inverted = await service.request('GET', '/v2/precipitation-forecast?bbox=5.5,5.7,-0.3,-0.1');
    expect(inverted.status).toBe(400);
    expect(await inverted.json()).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'bbox', message: expect.stringMatching(/north,south,east,west/) } });
  });

  it('serves the precipitation point cloud for the next 6 hours, ordered by chance, from the configured provider', async () => {
    const response = await service.request('GET', '/v2/precipitation-forecast?bbox=-0.3,5.5,-0.1,5.7');
    expect(response.status).toBe(200);
    const cloud = ((await response.json()) as { data: { type: string; features: Feature[]; hours: number; provider: string } }).data;
    expect(cloud).toMatchObject({ type: 'FeatureCollection', hours: 6, provider: 'open-meteo' });
    expect(cloud.features).toHaveLength(25);
    const chances = cloud.features.map((feature) => feature.properties.max_probability_pct as number);
    expect(chances).toEqual([...chances].sort((a, b) => b - a));
    expect(chances[0]).toBe(90);
    expect(chances[chances.length - 1]).toBe(80);
    expect(cloud.features[0].properties.expected_mm).toBe(24);
    expect(stub.calls.some((call) => call.searchParams.get('hourly') === 'precipitation_probability,precipitation')).toBe(true);
  });

  it('answers 503 FORECAST_NOT_CONFIGURED without a provider, never invented numbers', async () => {
    const response = await bare.request('GET', '/v2/precipitation-forecast');
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: { code: 'FORECAST_NOT_CONFIGURED' } });
  });

  it('notes the rain on a route and recommends the paved road over the ford while it rains', async () => {
    const response = await service.request('POST', '/v2/route', { key, body: { from: { lat: 5.5992, lng: -0.2008 }, to: { lat: 5.5992, lng: -0.1892 }, mode: 'driving' } });
    expect(response.status).toBe(200);
    const route = ((await response.json()) as { data: Route }).data;
    expect(route.summary).toMatch(/Ridge Road/);
    expect(route).toMatchObject({ recommended: true, flood_crossings: 0 });
    // The CAP alert imported above covers Accra too; the reason names both.
    expect(route.recommend_reason).toMatch(/"Heavy Rain" alert covers the fastest route and rain is likely along the fastest route: this route avoids 1 ford or flood-prone crossing\(s\) for \d+ s more/);
    expect(route.rain_note).toMatch(/Rain likely along the route .*80 % chance/);
    expect(route.rain_eta_penalty_s).toBe(Math.round(route.duration_s * 0.2));
    // The fastest, through the ford, is the alternative, with the same flags.
    expect(route.alternatives).toHaveLength(1);
    const fastest = route.alternatives[0];
    expect(fastest).toMatchObject({ recommended: false, recommend_reason: null, flood_crossings: 1 });
    expect(fastest.summary).toMatch(/River Road/);
    expect(fastest.rain_note).toMatch(/Rain likely/);
    expect(fastest.duration_s).toBeLessThan(route.duration_s);
  });
});
