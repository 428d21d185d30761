import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importRoads } from '../libs/routing/src/index.js';
import { greatCircleM as haversineM } from '../libs/platform/src/index.js';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';
import { signUp } from './support/http.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';

/** Issue #16 (docs/adr/0025): arrivals teach traffic, hazard reports reroute, over HTTP on the starter's Accra roads. */
const root = path.resolve(import.meta.dirname, '..');

interface Route {
  duration_s: number;
  geometry: { coordinates: Array<[number, number]> };
  steps: Array<{ traffic_factor: number; traffic_severity: string; traffic_color: string; traffic_source: string }>;
  incident_count: number;
  warnings: string[];
}

const WEST = { lat: 5.55, lng: -0.3 };
const EAST = { lat: 5.62, lng: -0.18 };
const PAIRS: Array<[{ lat: number; lng: number }, { lat: number; lng: number }]> = [
  [WEST, EAST],
  [{ lat: 5.56, lng: -0.22 }, { lat: 5.61, lng: -0.2 }],
  [{ lat: 5.6, lng: -0.25 }, { lat: 5.57, lng: -0.19 }],
];

describe('live road layer over HTTP', () => {
  let service: Service;
  let key: string;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-traffic-'));
    await importRoads(new FileDatasetStore(path.join(dataDir, 'reference')), path.join(root, 'starter/ghana/roads/roads.osm.gz'));
    // TRUST_PROXY: hazard reporters and arriving navigators come from their own X-Forwarded-For addresses.
    service = await bootService({ dataDir, env: { TRUST_PROXY: 'true' } });
    key = await signUp(service, 'Kofi');
    await eventually(async () => ((await fetch(`${service.url}/health`)).status === 200 ? true : undefined), 30_000);
  }, 90_000);
  afterAll(async () => {
    await service?.close();
  });

  const route = async (body: Record<string, unknown>): Promise<Route> => {
    const response = await service.request('POST', '/v2/route', { key, body });
    const json = (await response.json()) as { data: Route; error?: unknown };
    expect({ status: response.status, error: json.error }).toEqual({ status: 200, error: undefined });
    return json.data;
  };
  const accuracy = async () => ((await (await service.request('GET', '/v2/admin/traffic/accuracy', { key: ADMIN_KEY })).json()) as { data: { samples: number; samples_total: number; learned_wins: boolean; static_mape: number | null; learned_mape: number | null; arrival_error: { arrivals: number } } }).data;
  const heatmap = async () => ((await (await service.request('GET', '/v2/analytics/traffic-heatmap?bbox=5.7,5.5,-0.1,-0.35', { key })).json()) as { data: { cells: Array<{ cell: string; samples: number; factor: number; hour: number; source: string; severity: string; reporters: number }> } }).data;

  it('answers 204 to any arrival body with a key, even garbage, and 401 without one', async () => {
    for (const rawBody of ['{"destination": ', 'null', '[1,2]', '"text"', '{}', JSON.stringify({ destination: { lat: 0, lng: 0 }, elapsed_s: 'x', mode: 'rocket' })]) {
      expect([rawBody, (await service.request('POST', '/v2/navigation/arrival', { key, rawBody })).status]).toEqual([rawBody, 204]);
    }
    expect((await service.request('POST', '/v2/navigation/arrival', { key, rawBody: 'plain', headers: { 'content-type': 'text/plain' } })).status).toBe(204);
    expect((await service.request('POST', '/v2/navigation/arrival', { body: {} })).status).toBe(401);
  });

  it('one reporter, however many arrivals, leaves every route unchanged; enough distinct reporters change it (docs/adr/0031, 0056)', async () => {
    const before = await accuracy();
    expect(before).toMatchObject({ samples: 0, learned_wins: false, static_mape: null });
    expect((await heatmap()).cells).toEqual([]);
    // The "true" pattern: at 08:00 these trips take twice the static model's time.
    const morning = new Date();
    morning.setUTCDate(morning.getUTCDate() - 1);
    morning.setUTCHours(8, 0, 0, 0);
    const night = new Date(morning);
    night.setUTCHours(3);
    const routesAt = (at: Date) => Promise.all(PAIRS.map(([from, to]) => route({ from, to, depart_at: at.toISOString() })));
    const shape = (routes: Route[]) => routes.map((entry) => ({ duration_s: entry.duration_s, geometry: entry.geometry.coordinates, steps: entry.steps.map((step) => [step.traffic_factor, step.traffic_severity, step.traffic_source]) }));
    const staticRoutes = await routesAt(morning);
    const statics = staticRoutes.map((entry) => entry.duration_s);
    // Each navigator reports from its own address: a reporter is an address and an account together (ADR 0056).
    const arrive = (reporterKey: string, i: number, address: string) =>
      service.request('POST', '/v2/navigation/arrival', {
        key: reporterKey,
        headers: { 'x-forwarded-for': address },
        body: { origin: PAIRS[i][0], destination: PAIRS[i][1], end: { lat: PAIRS[i][1].lat + 0.0002, lng: PAIRS[i][1].lng }, elapsed_s: statics[i] * 2, mode: 'driving', depart_at: morning.toISOString() },
      });
    const samplesReach = (count: number) => eventually(async () => ((await accuracy()).samples === count ? true : undefined), 10_000);

    // One arrival from one reporter: every route as it was, every figure the prior.
    expect((await arrive(key, 0, '192.0.2.10')).status).toBe(204);
    await samplesReach(1);
    expect(shape(await routesAt(morning))).toEqual(shape(staticRoutes));
    const pending = (await heatmap()).cells;
    expect(pending.length).toBeGreaterThan(0);
    expect(pending.every((cell) => cell.source === 'prior' && cell.severity === 'unknown' && cell.factor === 1 && cell.reporters === 1)).toBe(true);
    const trafficAt = async (at: Date) => ((await (await service.request('GET', `/v2/route/traffic?at=${encodeURIComponent(at.toISOString())}`, { key })).json()) as { data: { learned_cells: number; pending_cells: number; model: { prior_source: string; min_reporters: number }; classes: Array<{ road_class: string; multiplier: number; source: string; prior_source: string; severity: string; color: string }> } }).data;
    const onPrior = await trafficAt(morning);
    expect(onPrior.classes.map((entry) => entry.road_class)).toEqual(['motorway', 'primary', 'secondary', 'residential']);
    expect(onPrior.classes.every((entry) => entry.source === 'prior' && entry.prior_source === 'static_speed_profile' && entry.multiplier === 1)).toBe(true);
    expect(onPrior).toMatchObject({ learned_cells: 0, model: { prior_source: 'static_speed_profile', min_reporters: 3 } });

    // The same reporter again and again (ten samples), from three networks: still one reporter, still no change.
    for (let round = 0; round < 3; round++) for (const i of PAIRS.keys()) expect((await arrive(key, i, `192.0.2.${10 + round}`)).status).toBe(204);
    await samplesReach(10);
    expect(shape(await routesAt(morning))).toEqual(shape(staticRoutes));
    expect(await accuracy()).toMatchObject({ learned_wins: false });
    expect((await heatmap()).cells.every((cell) => cell.reporters === 1)).toBe(true);

    // Four more free, new accounts, each from its own address, report the same trips twice each: five distinct reporters
    // at half weight are 2.5 of the 3 the gate needs (ADR 0056), so still no change.
    const others = ['Ama', 'Kwame', 'Efua', 'Yaw'];
    for (const [n, name] of others.entries()) {
      const other = await signUp(service, name);
      for (let round = 0; round < 2; round++) for (const i of PAIRS.keys()) expect((await arrive(other, i, `198.51.100.${20 + n}`)).status).toBe(204);
    }
    await samplesReach(34);
    expect(shape(await routesAt(morning))).toEqual(shape(staticRoutes));
    const halfWay = (await heatmap()).cells;
    expect(halfWay.some((cell) => cell.reporters === 5 && cell.samples >= 5)).toBe(true);
    expect(halfWay.every((cell) => cell.source === 'prior')).toBe(true);
    // A sixth: each cell-hour now has enough samples from enough reporters.
    const sixth = await signUp(service, 'Akosua');
    for (let round = 0; round < 2; round++) for (const i of PAIRS.keys()) expect((await arrive(sixth, i, '203.0.113.40')).status).toBe(204);
    // A trip no car makes (too fast) is rejected as a sample but kept as an arrival.
    await service.request('POST', '/v2/navigation/arrival', { key, body: { origin: WEST, destination: EAST, elapsed_s: 130, depart_at: morning.toISOString() } });
    await samplesReach(40);
    const after = await accuracy();
    expect(after.learned_mape!).toBeLessThanOrEqual(after.static_mape!);
    // The too-fast trip had no end point: 40 arrivals measured their arrival error.
    expect(after.arrival_error.arrivals).toBe(40);
    const cells = (await heatmap()).cells;
    const learnedCells = cells.filter((cell) => cell.source === 'learned');
    expect(learnedCells.length).toBeGreaterThan(3);
    expect(cells.every((cell) => cell.hour === 8 && cell.samples >= 1)).toBe(true);
    expect(learnedCells.every((cell) => cell.reporters >= 6 && cell.samples >= 5)).toBe(true);
    // Shrunk toward the prior: slower than static, not as slow as the reported 2×.
    const top = Math.max(...learnedCells.map((cell) => cell.factor));
    expect(top).toBeGreaterThan(1.3);
    expect(top).toBeLessThan(2);
    // A route at 08:00 is slower and its steps say so, from the same model; at 03:00 nothing was learned.
    const rush = await route({ from: WEST, to: EAST, depart_at: morning.toISOString() });
    expect(rush.duration_s).toBeGreaterThan(statics[0] * 1.15);
    expect(rush.steps.some((step) => step.traffic_source === 'learned' && step.traffic_factor > 1.3 && learnedCells.some((cell) => Math.abs(cell.factor - step.traffic_factor) < 0.011))).toBe(true);
    expect((await route({ from: WEST, to: EAST, depart_at: night.toISOString() })).steps.every((step) => step.traffic_severity === 'unknown' && step.traffic_source === 'prior')).toBe(true);
    const learnedTraffic = await trafficAt(morning);
    expect(learnedTraffic.learned_cells).toBe(learnedCells.length);
    expect(learnedTraffic.classes.every((entry) => entry.source === 'learned' && entry.multiplier > 1 && /^#[0-9A-F]{6}$/.test(entry.color))).toBe(true);
    expect((await trafficAt(night)).classes.every((entry) => entry.source === 'prior' && entry.multiplier === 1)).toBe(true);
  });

  // Issue 47, item 3 (ADR 0056): three free accounts signed up from one address, two arrival samples each, moved every
  // tenant's 08:30 route from 598 s to 934 s. 17:30 here: the test above taught the 08:00 hour.
  it('three fresh free accounts on one address, two arrivals each, do not move another account\'s route', async () => {
    const evening = new Date();
    evening.setUTCDate(evening.getUTCDate() - 1);
    evening.setUTCHours(17, 30, 0, 0);
    const trip = { from: WEST, to: EAST, depart_at: evening.toISOString() };
    const before = await route(trip);
    expect(before.steps.every((step) => step.traffic_source === 'prior')).toBe(true);
    const samples = (await accuracy()).samples;
    const address = '198.51.100.77';
    for (const name of ['Sock', 'Puppet', 'Troll']) {
      const response = await service.request('POST', '/v2/self/signup', { headers: { 'x-forwarded-for': address }, body: { name, email: `${name.toLowerCase()}-${Math.random().toString(36).slice(2)}@example.com` } });
      expect(response.status).toBe(201);
      const sock = ((await response.json()) as { data: { key: string } }).data.key;
      for (let round = 0; round < 2; round++) {
        const body = { origin: WEST, destination: EAST, end: EAST, elapsed_s: Math.round(before.duration_s * 1.56), mode: 'driving', depart_at: evening.toISOString() };
        expect((await service.request('POST', '/v2/navigation/arrival', { key: sock, headers: { 'x-forwarded-for': address }, body })).status).toBe(204);
      }
    }
    await eventually(async () => ((await accuracy()).samples === samples + 6 ? true : undefined), 10_000);
    // Six samples in each cell of the trip, from one reporter: every cell-hour still on the prior, the route as it was.
    const evenings = (await heatmap()).cells.filter((cell) => cell.hour === 17);
    expect(evenings.length).toBeGreaterThan(3);
    expect(evenings.every((cell) => cell.samples === 6 && cell.reporters === 1 && cell.source === 'prior')).toBe(true);
    const after = await route(trip);
    expect(after.duration_s).toBe(before.duration_s);
    expect(after.steps.every((step) => step.traffic_source === 'prior')).toBe(true);
  });

  // Issue 31, item 4 (ADR 0034): the same IP without a key and with a free key counted as two reporters and closed the road.
  it('counts one client once whether it reports with or without a key; reports sharing an IP or an account are one reporter', async () => {
    const at = { kind: 'road_blocked', lat: 5.7012, lng: -0.1013 };
    const report = async (ip: string, withKey: boolean) => {
      const response = await service.request('POST', '/v2/route/incidents', { body: at, headers: { 'x-forwarded-for': ip }, ...(withKey ? { key } : {}) });
      expect(response.status).toBe(201);
      return ((await response.json()) as { data: { corroborations: number } }).data.corroborations;
    };
    expect(await report('192.0.2.60', false)).toBe(1);
    expect(await report('192.0.2.60', true)).toBe(1);
    // The same account from another network, and that network alone afterwards: still the one reporter.
    expect(await report('192.0.2.61', true)).toBe(1);
    expect(await report('192.0.2.61', false)).toBe(1);
    const listed = (await (await service.request('GET', '/v2/route/incidents?bbox=5.71,5.69,-0.09,-0.11')).json()) as { data: { incidents: Array<{ corroborations: number; blocks_routes: boolean }> } };
    expect(listed.data.incidents).toEqual([expect.objectContaining({ corroborations: 1, blocks_routes: false })]);
    expect(await report('192.0.2.62', false)).toBe(2);
  });

  it('warns about a single flood report, and avoids the flood once two reporters confirm it', async () => {
    const from = { lat: 5.56, lng: -0.22 };
    const to = { lat: 5.61, lng: -0.2 };
    const plain = await route({ from, to });
    const line = plain.geometry.coordinates;
    const [lng, lat] = line[Math.floor(line.length / 2)];
    const report = (ip: string, kind = 'flooding') => service.request('POST', '/v2/route/incidents', { body: { kind, lat, lng, note: 'water over the road' }, headers: { 'x-forwarded-for': ip } });
    expect((await report('203.0.113.7', 'volcano')).status).toBe(400);
    const first = await report('203.0.113.7');
    expect(first.status).toBe(201);
    expect(((await first.json()) as { data: { corroborations: number } }).data.corroborations).toBe(1);
    // The same reporter again does not corroborate.
    expect(((await (await report('203.0.113.7')).json()) as { data: { corroborations: number } }).data.corroborations).toBe(1);
    const once = await route({ from, to, avoid_incidents: true });
    expect(once.geometry.coordinates).toEqual(line);
    expect(once.incident_count).toBe(1);
    expect(once.warnings.some((warning) => warning.startsWith('flooding reported near the route'))).toBe(true);
    const second = await report('198.51.100.9');
    expect(((await second.json()) as { data: { corroborations: number } }).data.corroborations).toBe(2);
    const listed = (await (await service.request('GET', `/v2/route/incidents?bbox=${lat + 0.01},${lat - 0.01},${lng + 0.01},${lng - 0.01}`)).json()) as { data: { incidents: Array<{ kind: string; corroborations: number; blocks_routes: boolean }> } };
    expect(listed.data.incidents).toEqual([expect.objectContaining({ kind: 'flooding', corroborations: 2, blocks_routes: true })]);
    expect(((await (await service.request('GET', '/v2/route/incidents?bbox=6.5,6.4,0.5,0.4')).json()) as { data: { incidents: unknown[] } }).data.incidents).toEqual([]);
    const avoided = await route({ from, to, avoid_incidents: true });
    expect(avoided.geometry.coordinates.every(([pointLng, pointLat]) => haversineM(lat, lng, pointLat, pointLng) > 40)).toBe(true);
    expect(avoided.warnings.some((warning) => warning.includes('avoided'))).toBe(true);
    // Without avoid_incidents the route still goes through, and says so.
    const through = await route({ from, to });
    expect(through.incident_count).toBe(1);
  });
});
