import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocationSealing } from '../libs/monitoring/src/testing/location-streams.js';
import { importOsm } from '../libs/places/src/index.js';
import { PNG } from 'pngjs';
import { BACKBONE_DATASET, importRoads, IsochroneService } from '../libs/routing/src/index.js';
import osrmTextInstructions from 'osrm-text-instructions';
import { bootService, eventually, type Service } from './support/boot.js';
import { signUp } from './support/http.js';
import { FileDatasetStore } from '../libs/platform/src/index.js';

/** interface.md, "Routing, transit, weather, language": POST /v2/route on the starter's Accra roads and landmarks. */
const root = path.resolve(import.meta.dirname, '..');
const starter = (file: string) => path.join(root, 'starter/ghana', file);

interface Step {
  instruction: string;
  name: string;
  distance_m: number;
  duration_s: number;
  coordinates: Array<[number, number]>;
  bearing_before: number;
  bearing_after: number;
  turn_angle: number;
  turn_class: string;
  surface: string;
  surface_color: string;
  verbal_alert: string;
  verbal_post: string | null;
  traffic_factor: number;
  traffic_severity: string;
  traffic_color: string;
  lanes?: unknown;
  instruction_landmark?: string;
  landmark_confidence?: number;
  alternate_landmarks?: string[];
  landmark?: { name: string; slug: string } | null;
}
interface Route {
  distance_m: number;
  duration_s: number;
  geometry: { type: string; coordinates: Array<[number, number]> };
  polyline: string;
  summary: string;
  steps: Step[];
  recommended: boolean;
  recommend_reason: string | null;
  flood_crossings: number;
  has_unpaved?: boolean;
  unpaved_distance_m: number;
  incident_count: number;
  warnings: string[];
  rain_note: string | null;
  rain_eta_penalty_s: number;
}
type Answer = Route & { mode: string; alternatives: Route[]; engine: string; attribution: string[] };

const WEST = { lat: 5.55, lng: -0.3 };
const EAST = { lat: 5.62, lng: -0.18 };

describe('routing over HTTP', () => {
  let service: Service;
  let key: string;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-routing-'));
    const store = new FileDatasetStore(path.join(dataDir, 'reference'));
    await importRoads(store, starter('roads/roads.osm.gz'));
    // The national backbone beside Accra's streets, as the starter pack has them: the okada's way round to Tema is on it.
    await importRoads(store, starter('roads/ghana-backbone.osm.gz'), {}, BACKBONE_DATASET);
    await importOsm(store, starter('landmarks/osm-pois.osm.gz'));
    // TRUST_PROXY: landmark reporters come from their own X-Forwarded-For addresses.
    service = await bootService({ dataDir, env: { TRUST_PROXY: 'true' } });
    key = await signUp(service, 'Ama');
    // The graph is prepared after the server listens; /health says 503 (pending road_network) until it is loaded.
    await eventually(async () => ((await fetch(`${service.url}/health`)).status === 200 ? true : undefined), 30_000);
  }, 90_000);
  afterAll(async () => {
    await service?.close();
  });

  const route = async (body: Record<string, unknown>, expected = 200) => {
    const response = await service.request('POST', '/v2/route', { key, body });
    const json = (await response.json()) as { success: boolean; data: Answer; error: { code: string; field?: string; details?: Record<string, unknown> } };
    expect({ status: response.status, error: json.error }).toMatchObject({ status: expected });
    return json;
  };

  it('routes a car across Accra with merged, well-formed steps, both geometries and the safer-route flags', async () => {
    const { data } = await route({ from: WEST, to: EAST, alternatives: 2 });
    expect(data.mode).toBe('driving');
    expect(data.distance_m).toBeGreaterThan(8000);
    expect(data.duration_s).toBeGreaterThan(300);
    expect(data.geometry.type).toBe('LineString');
    expect(data.geometry.coordinates.length).toBeGreaterThan(10);
    expect(typeof data.polyline).toBe('string');
    expect(data.steps[0].turn_class).toBe('depart');
    expect(data.steps[data.steps.length - 1].turn_class).toBe('arrive');
    const stepDistance = data.steps.reduce((sum, step) => sum + step.distance_m, 0);
    expect(Math.abs(stepDistance - data.distance_m)).toBeLessThan(5);
    for (const [i, step] of data.steps.entries()) {
      expect(step.instruction.length).toBeGreaterThan(3);
      expect(step.turn_class).toMatch(/^(depart|arrive|waypoint|straight|(slight_|sharp_)?(left|right)|uturn|roundabout_exit_\d+)$/);
      expect(Math.abs(step.turn_angle)).toBeLessThanOrEqual(180);
      expect(step.surface_color).toMatch(/^#[0-9A-F]{6}$/);
      expect([step.traffic_factor, step.traffic_severity, step.traffic_color]).toEqual([1, 'unknown', '#9E9E9E']);
      expect(step.lanes).toBeUndefined(); // the Accra extract has no turn:lanes
      // Merged: two consecutive named steps never carry the same name unless a roundabout or a real turn separates them.
      if (i > 0 && step.name !== '' && step.name === data.steps[i - 1].name && step.turn_class === 'straight') throw new Error(`unmerged step ${i}: ${step.name}`);
    }
    expect(data).toMatchObject({ recommended: false, recommend_reason: null, incident_count: 0, rain_note: null, rain_eta_penalty_s: 0 });
    // Issue 29: the only warnings are the snap distances past 100 m, each naming the distance the leg reports (ADR 35).
    const legs = (data as unknown as { legs: Array<{ snap_distance_from_m: number; snap_distance_to_m: number }> }).legs;
    const expected = [
      ...(legs[0].snap_distance_from_m > 100 ? [`from was moved ${legs[0].snap_distance_from_m} m to the nearest road a driving route may use`] : []),
      ...(legs[0].snap_distance_to_m > 100 ? [`to was moved ${legs[0].snap_distance_to_m} m to the nearest road a driving route may use`] : []),
    ];
    expect(data.warnings).toEqual(expected);
    expect(typeof data.flood_crossings).toBe('number');
    expect(typeof data.unpaved_distance_m).toBe('number');
    expect(data.alternatives.length).toBeGreaterThanOrEqual(1);
    expect(data.alternatives.length).toBeLessThanOrEqual(2);
    for (const alternative of data.alternatives) {
      expect(alternative.polyline).not.toBe(data.polyline);
      expect(alternative).toHaveProperty('flood_crossings');
      expect(alternative).toHaveProperty('unpaved_distance_m');
      expect(alternative.recommended).toBe(false);
    }
    expect(data.attribution).toEqual(['© OpenStreetMap contributors']);
  });

  it('routes an okada off the motorway the car takes', async () => {
    const car = (await route({ from: WEST, to: EAST })).data;
    const okada = (await route({ from: WEST, to: EAST, mode: 'okada' })).data;
    expect(okada.mode).toBe('motor_scooter');
    expect(car.summary).toContain('Motorway');
    expect(okada.summary).not.toContain('Motorway');
    expect(okada.polyline).not.toBe(car.polyline);
    expect((await route({ from: WEST, to: EAST, mode: '' })).data.mode).toBe('driving');
    expect((await route({ from: WEST, to: EAST, mode: 'walking' })).data.duration_s).toBeGreaterThan(car.duration_s * 3);
  });

  it('says when a route is poor: the okada from Airport Residential to Tema goes round by Aburi, the motorway being closed to it (issue 50)', async () => {
    const AIRPORT = { lat: 5.605, lng: -0.18 };
    const TEMA = { lat: 5.6698, lng: -0.0166 };
    const car = (await route({ from: AIRPORT, to: TEMA })).data as Answer & { detour?: unknown };
    const okada = (await route({ from: AIRPORT, to: TEMA, mode: 'okada' })).data as Answer & { detour?: { reason: string; distance_m: number; driving_distance_m: number; closed_roads: Array<{ ref: string | null; highway: string; restriction: string }> } };
    expect(okada.distance_m).toBeGreaterThan(2 * car.distance_m);
    const detours = okada.warnings.filter((warning) => warning.startsWith('detour: '));
    expect(detours).toHaveLength(1);
    expect(detours[0]).toMatch(/^detour: \d+\.\d km okada route, \d\.\d× the driving route \(\d+\.\d km\): closed to okada: the N1 motorway/);
    expect(okada.detour).toMatchObject({ reason: 'closed_to_mode', distance_m: Math.round(okada.distance_m), driving_distance_m: Math.round(car.distance_m) });
    expect(okada.detour?.closed_roads[0]).toMatchObject({ ref: 'N1', highway: 'motorway', restriction: 'highway=motorway' });
    // The snap warnings stay beside it; the car's route is not poor.
    expect(okada.warnings.filter((warning) => / was moved \d+ m to the nearest road a motor_scooter route may use$/.test(warning))).toHaveLength(okada.warnings.length - 1);
    expect(car.warnings.some((warning) => warning.startsWith('detour: '))).toBe(false);
    expect(car.detour).toBeUndefined();
    // A normal short okada route across town carries none.
    const short = (await route({ from: { lat: 5.556, lng: -0.233 }, to: { lat: 5.57, lng: -0.18 }, mode: 'okada' })).data as Answer & { detour?: unknown };
    expect(short.warnings.filter((warning) => warning.startsWith('detour: '))).toEqual([]);
    expect(short.detour).toBeUndefined();
  });

  it('narrates turns by landmarks, falling back to the street instruction, and never by a landmark reports excluded', async () => {
    const { data } = await route({ from: { lat: 5.556, lng: -0.233 }, to: { lat: 5.57, lng: -0.18 }, narration: 'landmark' });
    const named = data.steps.filter((step) => step.landmark);
    expect(named.length).toBeGreaterThan(0);
    for (const step of data.steps) {
      expect(step.instruction_landmark).toBeTruthy();
      expect(step.landmark_confidence).toBeGreaterThanOrEqual(0);
      expect(step.landmark_confidence).toBeLessThanOrEqual(1);
      expect(Array.isArray(step.alternate_landmarks)).toBe(true);
      if (step.landmark) expect(step.instruction_landmark).toContain(step.landmark.name);
      else expect(step.instruction_landmark).toBe(step.instruction);
    }
    // Three reporters say a landmark is wrong: it is excluded from narration, and the next route never names it.
    const named0 = named[0].landmark as { name: string; slug: string };
    for (const ip of ['198.51.100.11', '198.51.100.12', '198.51.100.13']) {
      const reported = await service.request('POST', `/v2/landmarks/${named0.slug}/report`, { body: { reason: 'wrong_landmark' }, headers: { 'x-forwarded-for': ip } });
      expect(reported.status).toBe(200);
    }
    const again = await eventually(async () => {
      const { data: next } = await route({ from: { lat: 5.556, lng: -0.233 }, to: { lat: 5.57, lng: -0.18 }, narration: 'landmark' });
      return next.steps.every((step) => (step.landmark as { slug?: string } | null)?.slug !== named0.slug) ? next : undefined;
    });
    expect(again.steps.map((step) => step.instruction_landmark).join(' ')).not.toContain(named0.name);
    const street = (await route({ from: { lat: 5.556, lng: -0.233 }, to: { lat: 5.57, lng: -0.18 } })).data;
    expect(street.steps.every((step) => step.instruction_landmark === undefined)).toBe(true);
    // Through Kwame Nkrumah Circle: each roundabout is one step naming its exit.
    const roundabouts = street.steps.filter((step) => step.turn_class.startsWith('roundabout_exit_'));
    expect(roundabouts.length).toBeGreaterThan(0);
    for (const step of roundabouts) expect(step.instruction).toMatch(/^Take the \d+(st|nd|rd|th) exit at the roundabout/);
  });

  it('refuses an unknown mode naming mode, a point far from any road with 422, and answers no 5xx on bad bodies', async () => {
    expect((await route({ from: WEST, to: EAST, mode: 'helicopter' }, 400)).error).toMatchObject({ code: 'INVALID_PARAM', field: 'mode' });
    expect((await route({ from: { lat: 5.3, lng: -0.2 }, to: EAST }, 422)).error).toMatchObject({ code: 'NO_ROAD_NEARBY', field: 'from' });
    expect((await route({ from: WEST, to: { lat: 91, lng: 0 } }, 400)).error).toMatchObject({ code: 'INVALID_PARAM', field: 'to.lat' });
    expect((await route({ from: WEST, to: EAST, alternatives: 5 }, 400)).error).toMatchObject({ code: 'INVALID_PARAM', field: 'alternatives' });
    expect((await route({ to: EAST }, 400)).error).toMatchObject({ code: 'INVALID_PARAM', field: 'from' });
    const unauthenticated = await service.request('POST', '/v2/route', { body: { from: WEST, to: EAST } });
    expect(unauthenticated.status).toBe(401);
  });

  describe('POST /v2/navigate/route', () => {
    // The maneuver types and modifiers of the OSRM v5 API (project-osrm.org/docs/v5.24.0/api/#stepmaneuver-object).
    const TYPES = ['turn', 'new name', 'depart', 'arrive', 'merge', 'on ramp', 'off ramp', 'fork', 'end of road', 'continue', 'roundabout', 'rotary', 'roundabout turn', 'notification', 'exit roundabout', 'exit rotary'];
    const MODIFIERS = ['uturn', 'sharp right', 'right', 'slight right', 'straight', 'slight left', 'left', 'sharp left'];
    const compile = osrmTextInstructions('v5');

    it('answers the Directions v5 document, public and outside the envelope, that an OSRM client library reads', async () => {
      const response = await service.request('POST', '/v2/navigate/route', { body: { from: { lat: 5.556, lng: -0.233 }, to: { lat: 5.57, lng: -0.18 }, alternatives: 1 } });
      expect(response.status).toBe(200);
      const feed = (await response.json()) as Record<string, any>;
      expect(feed.success).toBeUndefined();
      expect(feed.code).toBe('Ok');
      expect(feed.waypoints).toHaveLength(2);
      for (const waypoint of feed.waypoints) expect(waypoint.location).toEqual([expect.any(Number), expect.any(Number)]);
      expect(feed.routes.length).toBeGreaterThanOrEqual(1);
      for (const route of feed.routes) {
        expect(route).toMatchObject({ distance: expect.any(Number), duration: expect.any(Number), weight: expect.any(Number), weight_name: 'duration', geometry: expect.any(String) });
        for (const leg of route.legs) {
          expect(leg.steps[0].maneuver.type).toBe('depart');
          expect(leg.steps[leg.steps.length - 1].maneuver.type).toBe('arrive');
          for (const step of leg.steps) {
            expect(step).toMatchObject({ distance: expect.any(Number), duration: expect.any(Number), name: expect.any(String), mode: 'driving', geometry: expect.any(String) });
            expect(TYPES).toContain(step.maneuver.type);
            if (step.maneuver.modifier !== undefined) expect(MODIFIERS).toContain(step.maneuver.modifier);
            if (step.maneuver.type === 'roundabout') expect(step.maneuver.exit).toBeGreaterThanOrEqual(1);
            expect(step.maneuver.location).toEqual([expect.any(Number), expect.any(Number)]);
            expect(step.maneuver.bearing_after).toBeGreaterThanOrEqual(0);
            expect(step.maneuver.bearing_after).toBeLessThan(360);
            expect(step.intersections[0]).toMatchObject({ location: step.maneuver.location, bearings: expect.any(Array), entry: expect.any(Array) });
            for (const voice of step.voiceInstructions) expect(voice).toMatchObject({ distanceAlongGeometry: expect.any(Number), announcement: expect.any(String), ssmlAnnouncement: expect.stringMatching(/^<speak>/) });
            for (const banner of step.bannerInstructions) expect(banner).toMatchObject({ distanceAlongGeometry: expect.any(Number), primary: { text: expect.any(String), type: expect.any(String), components: expect.any(Array) } });
            // Project-OSRM's own instruction compiler reads every step.
            expect(compile.compile('en', step, { legCount: route.legs.length, legIndex: 0 }).length).toBeGreaterThan(3);
          }
          expect(leg.steps.slice(0, -1).every((step: any) => step.voiceInstructions.length > 0 && step.bannerInstructions.length > 0)).toBe(true);
        }
      }
      const geojson = (await (await service.request('POST', '/v2/navigate/route', { body: { from: WEST, to: EAST, geometries: 'geojson' } })).json()) as Record<string, any>;
      expect(geojson.routes[0].geometry.type).toBe('LineString');
      const bad = await service.request('POST', '/v2/navigate/route', { body: { from: WEST, to: EAST, mode: 'jet' } });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ success: false, error: { code: 'INVALID_PARAM', field: 'mode' } });
    });
  });

  describe('GET /v2/route/along', () => {
    interface Along {
      length_m: number;
      items: Array<{ name: string; distance_along_m: number; offset_m: number; side: string; landmark_confidence: number }>;
    }
    it('lists the landmarks a route passes, in order, with their side of the road, from points or from a polyline', async () => {
      const response = await service.request('GET', '/v2/route/along?from=5.556,-0.233&to=5.57,-0.18&radius_m=60', { key });
      expect(response.status).toBe(200);
      const along = ((await response.json()) as { data: Along }).data;
      expect(along.length_m).toBeGreaterThan(5000);
      expect(along.items.length).toBeGreaterThan(3);
      for (const [i, item] of along.items.entries()) {
        expect(['left', 'right', 'on']).toContain(item.side);
        expect(item.offset_m).toBeLessThanOrEqual(60);
        expect(item.distance_along_m).toBeLessThanOrEqual(along.length_m + 1);
        if (i > 0) expect(item.distance_along_m).toBeGreaterThanOrEqual(along.items[i - 1].distance_along_m);
      }
      const { data: route } = await route_({ from: { lat: 5.556, lng: -0.233 }, to: { lat: 5.57, lng: -0.18 } });
      const byPolyline = await service.request('GET', `/v2/route/along?radius_m=60&polyline=${encodeURIComponent(route.polyline)}`, { key });
      const sameRoute = ((await byPolyline.json()) as { data: Along }).data;
      expect(sameRoute.items.map((item) => item.name)).toEqual(along.items.map((item) => item.name));
      const broken = await service.request('GET', '/v2/route/along?polyline=%7E%7E%7E', { key });
      expect(broken.status).toBe(400);
      expect(await broken.json()).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'polyline' } });
    });

    const route_ = async (body: Record<string, unknown>) => (await (await service.request('POST', '/v2/route', { key, body })).json()) as { data: Answer };
  });

  describe('GET /v2/route/static', () => {
    it('draws an 800×500 PNG with the route in its colour, public', async () => {
      const response = await service.request('GET', '/v2/route/static?from=5.556,-0.233&to=5.57,-0.18');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      const image = PNG.sync.read(Buffer.from(await response.arrayBuffer()));
      expect([image.width, image.height]).toEqual([800, 500]);
      let routePixels = 0;
      for (let i = 0; i < image.data.length; i += 4) if (image.data[i] === 0x1a && image.data[i + 1] === 0x73 && image.data[i + 2] === 0xe8) routePixels++;
      expect(routePixels).toBeGreaterThan(1000);
      const bad = await service.request('GET', '/v2/route/static?from=5.556&to=5.57,-0.18');
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ success: false, error: { code: 'INVALID_PARAM', field: 'from' } });
    });
  });

  describe('isochrones for geofences', () => {
    it('outlines the area reachable in minutes as a closed polygon under the fence limits, larger for more minutes', async () => {
      const isochrones = service.app.get(IsochroneService);
      const small = await isochrones.isochrone({ center: { lat: 5.5503, lng: -0.2076 }, minutes: 3, mode: 'driving' });
      const large = await isochrones.isochrone({ center: { lat: 5.5503, lng: -0.2076 }, minutes: 8, mode: 'driving' });
      expect(small.h3_cells.length).toBeGreaterThan(0);
      expect(large.h3_cells.length).toBeGreaterThan(small.h3_cells.length);
      expect(large.reachable_road_m).toBeGreaterThan(small.reachable_road_m);
      const ring = large.polygon.coordinates[0];
      expect(ring[0]).toEqual(ring[ring.length - 1]);
      expect(ring.length).toBeLessThanOrEqual(1001);
      await expect(isochrones.isochrone({ center: { lat: 5.5503, lng: -0.2076 }, minutes: 0, mode: 'driving' })).rejects.toThrow(/minutes/);
      await expect(isochrones.isochrone({ center: { lat: 5.5503, lng: -0.2076 }, minutes: 5, mode: 'rocket' })).rejects.toThrow(/mode/);

    });

    it('creates an isochrone fence over HTTP: a ping inside fires geofence_breach, a ping far outside does not', async () => {
      const center = { lat: 5.5503, lng: -0.2076 };
      const created = await service.request('POST', '/v2/geofence/create', {
        key,
        body: { fence_type: 'isochrone', center, minutes: 8, mode: 'okada', customer_id: 'rider-1', name: 'within 8 minutes' },
      });
      expect(created.status).toBe(201);
      const fence = ((await created.json()) as { data: { id: string; fence_type: string; center: unknown; radius_m: unknown; polygon: { coordinates: number[][][] }; isochrone: Record<string, unknown>; cell_count: number } }).data;
      expect(fence).toMatchObject({ fence_type: 'isochrone', center, radius_m: null, isochrone: { minutes: 8, mode: 'motor_scooter', h3_resolution: expect.any(Number) } });
      expect(fence.cell_count).toBeGreaterThan(0);
      // The same area the routing service outlines, stored and indexed as a polygon.
      const area = await service.app.get(IsochroneService).isochrone({ center, minutes: 8, mode: 'okada' });
      expect(fence.polygon.coordinates[0]).toEqual(area.polygon.coordinates[0]);
      expect(fence.isochrone.snapped).toEqual(area.snapped);
      expect((await service.request('GET', `/v2/geofence/${fence.id}`, { key })).status).toBe(200);

      await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: 'rider-1' } });
      // Location events are sealed (ADR 8): counted by type, this customer's are the only pings of the suite.
      const breaches = async () => (await service.runtime.backends.events.readAll({ maxCount: 100_000 })).filter((event) => event.type === 'GeofenceEntered');
      // Far outside (Tema, ~25 km east): nothing.
      const at = (secondsAgo: number) => new Date(Date.now() - secondsAgo * 1000).toISOString();
      const outside = await service.request('POST', '/v2/monitoring/pings', { key, body: { customer_id: 'rider-1', lat: 5.67, lng: 0.0, recorded_at: at(20) } });
      expect(outside.status).toBeLessThan(300);
      expect(await breaches()).toHaveLength(0);
      const inside = await service.request('POST', '/v2/monitoring/pings', { key, body: { customer_id: 'rider-1', lat: area.snapped.lat, lng: area.snapped.lng, recorded_at: at(10) } });
      expect(inside.status).toBeLessThan(300);
      const fired = await breaches();
      expect(fired).toHaveLength(1);
      // The breach names this fence and its type (what the geofence_breach webhook carries).
      expect((await new LocationSealing(service.runtime.backends.dataKeys).open(fired[0]))?.data).toMatchObject({ fence_id: fence.id, fence_type: 'isochrone', customer_id: 'rider-1' });
    });

    it.each([
      [{ minutes: 0 }, 400, 'INVALID_PARAM', 'minutes'],
      [{ minutes: 61 }, 400, 'INVALID_PARAM', 'minutes'],
      [{ minutes: 5, mode: 'rocket' }, 400, 'INVALID_PARAM', 'mode'],
      [{ minutes: 5, center: { lat: 4.5, lng: -0.2 } }, 422, 'NO_ROAD_NEARBY', 'center'],
    ])('refuses an isochrone fence %j with %i %s on %s', async (body, status, code, field) => {
      const response = await service.request('POST', '/v2/geofence/create', { key, body: { fence_type: 'isochrone', center: { lat: 5.5503, lng: -0.2076 }, ...body } });
      expect(response.status).toBe(status);
      expect(await response.json()).toMatchObject({ success: false, error: { code, field } });
    });
  });

  describe('npm run ops -- import:roads', () => {
    it('imports a road file with a progress report, lists it, and refuses a file without roads and a missing file argument', () => {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-roads-ops-'));
      const ops = (...args: string[]) =>
        spawnSync(process.execPath, ['scripts/start.mjs', 'ops', ...args], { cwd: root, env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout: 60_000 });
      const imported = ops('import:roads', path.join(root, 'libs/routing/src/__fixtures__/junction.osm'));
      expect(imported.stderr).toMatch(/import:roads reading: 100%/);
      expect(imported.stdout).toMatch(/roads is now v\d{8}T\d{9}Z-[0-9a-f]{6} \(\d+ records\)/);
      expect(imported.stdout).toContain('restrictions: 2');
      // Prepared at once: the running service finds the graph file and swaps it in.
      expect(imported.stdout).toMatch(/arcs_driving: \d+/);
      expect(imported.stderr).toMatch(/import:roads contracting driving: 100%/);
      expect(imported.status).toBe(0);
      expect(ops('reference:list').stdout).toMatch(/^\* roads\tv\S+\t\d+ records\tjunction\.osm$/m);
      const wrong = ops('import:roads', path.join(root, 'libs/places/src/__fixtures__/landmarks-sample.osm'));
      expect(wrong.status).toBe(1);
      expect(wrong.stderr).toContain('no routable highway way');
      expect(ops('import:roads').status).toBe(64);
    }, 90_000);
  });
});
