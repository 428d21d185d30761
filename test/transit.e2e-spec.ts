import { jest } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importGtfs, PlannerPool, TransitBusyError } from '../libs/transit/src/index.js';
import { SAMPLE_FEED, SAMPLE_STOPS, writeGtfsZip } from '../libs/transit/src/testing/gtfs-feed.js';
import { bootService, type Service } from './support/boot.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';

/**
 * Issue #17 over HTTP: POST /v2/route/transit and GET /v2/transit/departures
 * on the generated sample feed (libs/transit/src/testing/gtfs-feed.ts), whose
 * answers are known; the routing throttle; 503 before any feed.
 */
interface Envelope<T> {
  success: boolean;
  data: T;
  error: { code: string; field?: string; message: string };
}

interface TransitStop {
  id: string;
  name: string;
  lat: number;
  lng: number;
  parent_station: { id: string; name: string } | null;
  arrival_time?: string | null;
  departure_time?: string | null;
}

interface Leg {
  mode: 'walk' | 'transit';
  departure_time: string;
  arrival_time: string;
  distance_m: number;
  geometry: number[][];
  route?: { short_name: string; name: string; color: string | null; mode: string };
  headsign?: string;
  stops?: TransitStop[];
  frequency_based?: boolean;
  headway_s?: number | null;
  expected_wait_s?: number | null;
  times_estimated?: boolean;
}

interface Itinerary {
  walk_only: boolean;
  departure_time: string;
  arrival_time: string;
  vehicles: number;
  transfers: number;
  legs: Leg[];
}

interface TransitAnswer {
  itineraries: Itinerary[];
  no_transit: boolean;
  note: string | null;
  first_trip?: { local_time: string; route: { short_name: string }; stop: TransitStop };
  last_trip?: { local_time: string; route: { short_name: string }; stop: TransitStop };
  timetable_out_of_date: boolean;
  dataset: { dataset: string; timezone: string };
  attribution: string[];
}

describe('transit over HTTP', () => {
  let service: Service;
  let key: string;
  const plan = async (body: Record<string, unknown>) => {
    const response = await service.request('POST', '/v2/route/transit', { key, body });
    return { status: response.status, body: (await response.json()) as Envelope<TransitAnswer> };
  };

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-transit-'));
    await importGtfs(new FileDatasetStore(path.join(dataDir, 'reference')), writeGtfsZip(SAMPLE_FEED));
    service = await bootService({ dataDir, env: { THROTTLE_ROUTING_PER_MINUTE: '1000' } });
    const signup = await service.request('POST', '/v2/self/signup', { body: { name: 'Esi', email: `esi-${Date.now()}@example.com` } });
    key = ((await signup.json()) as Envelope<{ key: string }>).data.key;
  });
  afterAll(async () => {
    await service?.close();
  });

  it('plans with two vehicles and a walking change, and with one slower vehicle: legs, TransitStops, shapes', async () => {
    const { status, body } = await plan({ from: SAMPLE_STOPS.A, to: SAMPLE_STOPS.D, date: '2024-06-05', time: '06:55' });
    expect(status).toBe(200);
    const answer = body.data;
    expect(answer).toMatchObject({ no_transit: false, note: null, timetable_out_of_date: false, dataset: { dataset: 'transit/gtfs', timezone: 'Africa/Accra' }, attribution: ['Transit data: Test Transit'] });
    expect(answer.first_trip).toBeUndefined();
    expect(answer.itineraries.map((itinerary) => [itinerary.walk_only, itinerary.vehicles, itinerary.transfers, itinerary.arrival_time])).toEqual([
      [false, 2, 1, '2024-06-05T07:50:00Z'],
      [false, 1, 0, '2024-06-05T08:20:00Z'],
    ]);
    const [first] = answer.itineraries;
    expect(first.legs.map((leg) => `${leg.mode} ${leg.departure_time.slice(11, 16)}-${leg.arrival_time.slice(11, 16)}`)).toEqual(['transit 07:00-07:30', 'walk 07:30-07:32', 'transit 07:35-07:50']);
    const ride = first.legs[0];
    expect(ride).toMatchObject({ route: { short_name: '1', name: '1 Alpha - Central', color: '#ff0000', mode: 'bus' }, headsign: 'Central', frequency_based: false, times_estimated: false, expected_wait_s: null });
    expect(ride.stops!.map((stop) => [stop.id, stop.arrival_time, stop.departure_time])).toEqual([
      ['A', null, '2024-06-05T07:00:00Z'],
      ['B', '2024-06-05T07:15:00Z', '2024-06-05T07:15:00Z'],
      ['C', '2024-06-05T07:30:00Z', null],
    ]);
    expect(ride.stops![2]).toMatchObject({ name: 'Central', lat: 5.6, lng: -0.2, parent_station: { id: 'CS', name: 'Central Station' } });
    // [lng, lat] pairs along shape S1 (it bends through 5.601 between the stops).
    expect(ride.geometry[0]).toEqual([-0.3, 5.6]);
    expect(ride.geometry).toContainEqual([-0.275, 5.601]);
    expect(ride.geometry[ride.geometry.length - 1]).toEqual([-0.2, 5.6]);
    expect(first.legs[1]).toMatchObject({ mode: 'walk', geometry: [[-0.2, 5.6], [-0.2, 5.6013]] });
    // Without a shape, the line joins the stops.
    expect(first.legs[2].geometry).toEqual([[-0.2, 5.6013], [-0.2, 5.65]]);
  });

  it('marks a trotro leg as headway-based: half the headway waited, times estimated', async () => {
    const { body } = await plan({ from: SAMPLE_STOPS.E, to: SAMPLE_STOPS.G, date: '2024-06-05', time: '08:00:00', max_walk_m: 'ignored' });
    const ride = body.data.itineraries[0].legs[0];
    expect(ride).toMatchObject({ mode: 'transit', frequency_based: true, headway_s: 600, expected_wait_s: 300, times_estimated: true, departure_time: '2024-06-05T08:05:00Z' });
  });

  it('flags walking alone (never passed off as transit), and walks only when modes leave transit out', async () => {
    const near = await plan({ from: SAMPLE_STOPS.A, to: { lat: 5.6, lng: -0.292 }, date: '2024-06-05', time: '08:00' });
    expect(near.body.data.no_transit).toBe(true);
    expect(near.body.data.itineraries.map((itinerary) => [itinerary.walk_only, itinerary.vehicles, itinerary.legs.map((leg) => leg.mode)])).toEqual([[true, 0, ['walk']]]);
    expect(near.body.data.note).toMatch(/walking only/i);
    const walkMode = await plan({ from: SAMPLE_STOPS.A, to: SAMPLE_STOPS.C, date: '2024-06-05', time: '06:50', modes: 'WALK' });
    expect(walkMode.body.data).toMatchObject({ itineraries: [], no_transit: true });
    expect(walkMode.body.data.note).toMatch(/not among the requested modes/);
    for (const modes of ['Transit,WALK', '', ['bus', 'TRANSIT']]) {
      expect((await plan({ from: SAMPLE_STOPS.A, to: SAMPLE_STOPS.C, date: '2024-06-05', time: '06:50', modes })).body.data.no_transit).toBe(false);
    }
  });

  it('after the last trip: no transit, with first_trip and last_trip', async () => {
    const { body } = await plan({ from: SAMPLE_STOPS.E, to: SAMPLE_STOPS.G, date: '2024-06-05', time: '21:00' });
    expect(body.data).toMatchObject({ itineraries: [], no_transit: true, first_trip: { local_time: '06:00:00', route: { short_name: 'F' }, stop: { id: 'E' } }, last_trip: { local_time: '20:00:00' } });
    expect(body.data.note).toContain('last_trip');
  });

  it('says the timetable is out of date after the feed’s calendar ends, and still answers', async () => {
    const { body } = await plan({ from: SAMPLE_STOPS.A, to: SAMPLE_STOPS.C, date: '2026-06-03', time: '06:50' });
    expect(body.data.timetable_out_of_date).toBe(true);
    expect(body.data.note).toContain('2024-12-31');
    expect(body.data.itineraries[0].legs[0]).toMatchObject({ mode: 'transit', departure_time: '2026-06-03T07:00:00Z' });
  });

  it('answers 400 INVALID_PARAM naming the field for a malformed date, time, point, modes or arrive_by; 401 without a key', async () => {
    const base = { from: SAMPLE_STOPS.A, to: SAMPLE_STOPS.C, date: '2024-06-05', time: '06:50' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...base, date: '2024-13-01' }, 'date'],
      [{ ...base, date: '2024-02-30' }, 'date'],
      [{ ...base, date: '05/06/2024' }, 'date'],
      [{ ...base, time: '25:00' }, 'time'],
      [{ ...base, time: '7:5' }, 'time'],
      [{ ...base, time: 730 }, 'time'],
      [{ ...base, from: { lat: 'x', lng: 1 } }, 'from.lat'],
      [{ ...base, to: { lat: 5.6, lng: 200 } }, 'to.lng'],
      [{ to: base.to }, 'from'],
      [{ ...base, modes: 5 }, 'modes'],
      [{ ...base, arrive_by: 'yes' }, 'arrive_by'],
      [{ ...base, via: 'x' }, 'via'],
    ];
    for (const [body, field] of cases) {
      const answer = await plan(body);
      expect({ body, status: answer.status, code: answer.body.error?.code, field: answer.body.error?.field }).toEqual({ body, status: 400, code: 'INVALID_PARAM', field });
    }
    expect((await service.request('POST', '/v2/route/transit', { body: base })).status).toBe(401);
  });

  it('boards the line that starts near Central (not those ending there), publicly', async () => {
    const response = await service.request('GET', `/v2/transit/departures?lat=${SAMPLE_STOPS.C.lat}&lng=${SAMPLE_STOPS.C.lng}&radius_m=300&date=2024-06-05&time=07:00`);
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as Envelope<{ stops: TransitStop[]; lines: Array<{ route: { short_name: string }; destination: string; stop: TransitStop & { distance_m: number }; last_stop: TransitStop; next_departures: Array<{ local_time: string; departure_time: string }>; frequency_based: boolean }> }>;
    expect(data.stops.map((stop) => stop.id)).toEqual(['C', 'C2']);
    expect(data.lines).toHaveLength(1);
    expect(data.lines[0]).toMatchObject({ route: { short_name: '2' }, destination: 'Delta', stop: { id: 'C2', distance_m: 145 }, last_stop: { id: 'D' }, frequency_based: false });
    expect(data.lines[0].next_departures).toEqual([{ departure_time: '2024-06-05T07:35:00Z', local_time: '07:35:00', trip_id: 'L2a' }]);
    const trotro = (await (await service.request('GET', `/v2/transit/departures?lat=${SAMPLE_STOPS.E.lat}&lng=${SAMPLE_STOPS.E.lng}&date=2024-06-05&time=08:00`)).json()) as Envelope<{ lines: Array<{ headway: unknown }> }>;
    expect(trotro.data.lines[0].headway).toEqual({ headway_s: 600, running: true, from_time: '2024-06-05T06:00:00Z', until_time: '2024-06-05T20:00:00Z', from_local: '06:00:00', until_local: '20:00:00' });
    for (const [query, field] of [
      ['lat=5.6&lng=-0.2&radius_m=5000', 'radius_m'],
      ['lng=-0.2', 'lat'],
      ['lat=5.6&lng=-0.2&time=8', 'time'],
    ]) {
      const bad = await service.request('GET', `/v2/transit/departures?${query}`);
      expect({ query, status: bad.status, field: ((await bad.json()) as Envelope<unknown>).error.field }).toEqual({ query, status: 400, field });
    }
  });

  it('answers 503 TRANSIT_BUSY with Retry-After in the envelope when the planner threads cannot take the request', async () => {
    const planner = service.app.get(PlannerPool);
    const refusal = jest.spyOn(planner, 'plan').mockRejectedValueOnce(new TransitBusyError('transit planning is at capacity (1 threads busy, 50 requests waiting); try again shortly'));
    try {
      const response = await service.request('POST', '/v2/route/transit', { key, body: { from: SAMPLE_STOPS.A, to: SAMPLE_STOPS.D, date: '2024-06-05', time: '06:55' } });
      expect(response.status).toBe(503);
      expect(response.headers.get('retry-after')).toBe('1');
      expect(((await response.json()) as Envelope<unknown>).error).toMatchObject({ code: 'TRANSIT_BUSY', message: expect.stringMatching(/at capacity/) });
    } finally {
      refusal.mockRestore();
    }
    expect((await plan({ from: SAMPLE_STOPS.A, to: SAMPLE_STOPS.D, date: '2024-06-05', time: '06:55' })).status).toBe(200);
  });

  /**
   * The service as deployed (dist/, which the test run's global setup builds): its planner thread
   * answers exactly what this in-process service answers, from a copy of the same feed version.
   */
  const dist = path.resolve(import.meta.dirname, '../dist/libs/transit/src/planning/planner.worker.js');
  if (!existsSync(dist)) process.stderr.write(`${dist} is not built (npm run build): skipping the threaded service's transit answers\n`);
  (existsSync(dist) ? it : it.skip)('answers the same from the compiled service, planning in a worker thread (TRANSIT_WORKERS=1)', async () => {
    const bodies = [
      { from: SAMPLE_STOPS.A, to: SAMPLE_STOPS.D, date: '2024-06-05', time: '06:55' },
      { from: SAMPLE_STOPS.A, to: SAMPLE_STOPS.D, date: '2024-06-05', time: '08:30', arrive_by: true },
      { from: SAMPLE_STOPS.E, to: SAMPLE_STOPS.G, date: '2024-06-05', time: '08:00:00' },
      { from: SAMPLE_STOPS.E, to: SAMPLE_STOPS.G, date: '2024-06-05', time: '21:00' },
      { from: SAMPLE_STOPS.A, to: SAMPLE_STOPS.C, date: '2026-11-25', time: '06:50' },
    ];
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-transit-threads-'));
    cpSync(path.join(service.dataDir, 'reference'), path.join(dataDir, 'reference'), { recursive: true });
    const script = `
      import path from 'node:path';
      await import(path.resolve('node_modules/reflect-metadata/Reflect.js'));
      const { AllInOneModule } = await import(path.resolve('dist/apps/all-in-one/src/all-in-one.module.js'));
      const { serveHttp } = await import(path.resolve('dist/apps/api/src/serve.js'));
      const { openRuntime } = await import(path.resolve('dist/apps/shared/runtime.js'));
      const { PlannerPool } = await import(path.resolve('dist/libs/transit/src/index.js'));
      const env = { NODE_ENV: 'test', PORT: '0', HOST: '127.0.0.1', DATA_DIR: ${JSON.stringify(dataDir)}, ADMIN_API_KEY: 'threads-admin-key-0123456789abcdef', LOG_LEVEL: 'silent', STARTER_DATA: 'false', TRANSIT_WORKERS: '1', THROTTLE_ROUTING_PER_MINUTE: '1000' };
      const runtime = await openRuntime('location-api-test', env);
      const running = await serveHttp(runtime, AllInOneModule.forRoot(runtime), 'all-in-one', { signals: false });
      const issued = await fetch(running.url + '/v2/admin/keys', { method: 'POST', headers: { 'x-api-key': env.ADMIN_API_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'threads', tier: 'free' }) });
      const { key } = (await issued.json()).data;
      const answers = [];
      for (const body of ${JSON.stringify(bodies)}) {
        const response = await fetch(running.url + '/v2/route/transit', { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(body) });
        answers.push({ status: response.status, data: (await response.json()).data });
      }
      const threaded = running.app.get(PlannerPool).threaded;
      await running.close();
      process.stdout.write(JSON.stringify({ threaded, answers }) + '\\n');
      process.exit(0);
    `;
    // A file, not "node --input-type=module -e": a worker thread inherits that flag and refuses to start.
    const file = path.join(dataDir, 'serve-threaded.mjs');
    writeFileSync(file, script);
    const child = spawnSync(process.execPath, [file], { cwd: path.resolve(import.meta.dirname, '..'), encoding: 'utf8', timeout: 60_000 });
    expect(child.stderr).toBe('');
    const outcome = JSON.parse(child.stdout.trim().split('\n').pop()!) as { threaded: boolean; answers: Array<{ status: number; data: unknown }> };
    expect(outcome.threaded).toBe(true);
    const inProcess = [];
    for (const body of bodies) {
      const { status, body: answer } = await plan(body);
      inProcess.push({ status, data: answer.data });
    }
    expect(JSON.stringify(outcome.answers)).toBe(JSON.stringify(inProcess));
    expect(outcome.answers.every((answer) => answer.status === 200)).toBe(true);
  }, 90_000);

  it('documents both endpoints in the OpenAPI document as built', async () => {
    const document = (await (await service.request('GET', '/v2/openapi.json')).json()) as { paths: Record<string, Record<string, { summary?: string }>> };
    expect(document.paths['/v2/route/transit'].post.summary).toMatch(/transit itineraries/i);
    expect(document.paths['/v2/transit/departures'].get.summary).toMatch(/next departures/);
  });
});

describe('transit before any feed, and the routing throttle', () => {
  let service: Service;
  beforeAll(async () => {
    service = await bootService({ env: { THROTTLE_ROUTING_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('answers 503 DATASET_NOT_LOADED, and counts every spelling of the transit paths in the routing throttle', async () => {
    const first = await service.request('GET', '/v2/transit/departures?lat=5.6&lng=-0.2');
    expect(first.status).toBe(503);
    expect(((await first.json()) as Envelope<unknown>).error.code).toBe('DATASET_NOT_LOADED');
    // The router decodes %72 to "r": the throttle must see the same path.
    expect((await service.request('POST', '/v2/%72oute/transit', { body: {} })).status).not.toBe(429);
    expect((await service.request('POST', '/v2/route/transit/', { body: {} })).status).not.toBe(429);
    const limited = await service.request('POST', '/v2/route/%74ransit', { body: {} });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('x-ratelimit-limit')).toBe('3');
  });
});

describe('npm run ops -- import:gtfs', () => {
  const root = path.resolve(import.meta.dirname, '..');
  const ops = (dataDir: string, ...args: string[]) =>
    spawnSync(process.execPath, ['scripts/start.mjs', 'ops', ...args], { cwd: root, env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout: 90_000 });

  it('imports a feed into transit/NAME with its report, refuses a broken one (exit 1) naming the problem, and lists both in reference:list', () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-gtfs-ops-'));
    const imported = ops(dataDir, 'import:gtfs', writeGtfsZip(SAMPLE_FEED), '--dataset', 'sample');
    expect({ status: imported.status, stderr: imported.stderr }).toMatchObject({ status: 0 });
    expect(imported.stdout).toMatch(/import:gtfs: transit\/sample is now v\d{8}T\d{9}Z-[0-9a-f]{6} \(\d+ records\)/);
    expect(imported.stdout).toContain('WARNING interpolated_times ×1');
    expect(imported.stdout).toMatch(/trips: 7\n/);
    const broken = { ...SAMPLE_FEED };
    delete broken['stops.txt'];
    const refused = ops(dataDir, 'import:gtfs', writeGtfsZip(broken), '--dataset', 'sample');
    expect(refused.status).toBe(1);
    expect(refused.stdout).toContain('FATAL missing_required_file ×1');
    expect(refused.stderr).toContain('stops.txt');
    const listed = ops(dataDir, 'reference:list');
    expect(listed.stdout).toMatch(/\* transit\/sample\tv\d{8}T/);
    expect(ops(dataDir, 'import:gtfs').status).toBe(64);
  }, 180_000);
});
