import { describe, expect, it } from '@jest/globals';
import type { Mode } from '../domain/profiles.js';
import type { RoadNetwork } from '../public/road-network.js';
import { RoutePlanner } from '../public/route-planner.js';
import type { EnginePath, EngineRouteRequest, LatLng, RoadAttributes, RoutingEngine } from '../routing-engine.port.js';
import { closedRoads, DETOUR_MIN_EXTRA_M, detourOf, detourWarning, straightLineM, worthComparing } from './detour.js';

const FROM = { lat: 5.605, lng: -0.18 };
const TO = { lat: 5.605, lng: -0.09 }; // ≈ 9.96 km due east

interface Stretch {
  distance_m: number;
  highway: string;
  name?: string;
  ref?: string;
  way?: string;
  closed_for?: Partial<Record<Mode, string>>;
}

function road(stretch: Stretch): RoadAttributes {
  return {
    name: stretch.name ?? null, ref: stretch.ref ?? null, highway: stretch.highway, surface: null, surface_class: 'paved', smoothness: null, roundabout: false, lanes: null,
    turn_lanes: null, maxspeed_kmh: null, bridge: false, ford: false, flood_prone: false, ...(stretch.closed_for ? { closed_for: stretch.closed_for } : {}),
  };
}

/** A path of one leg FROM → TO whose stretches are laid end to end along the line (their lengths are what the route says, not the drawing). */
function path(stretches: Stretch[]): EnginePath {
  const coordinates: Array<[number, number]> = stretches.map((_, i) => [FROM.lng + ((TO.lng - FROM.lng) * i) / stretches.length, FROM.lat]);
  coordinates.push([TO.lng, TO.lat]);
  const spans = stretches.map((stretch, i) => ({ from: i, to: i + 1, distance_m: stretch.distance_m, duration_s: stretch.distance_m / 10, road: road(stretch), road_id: stretch.way ?? `osm:way/${i + 1}`, junction_degree: 3 }));
  const distance = stretches.reduce((sum, stretch) => sum + stretch.distance_m, 0);
  return { distance_m: distance, duration_s: distance / 10, legs: [{ distance_m: distance, duration_s: distance / 10, coordinates, spans, snapped_from: FROM, snapped_to: TO }], layers: [0] };
}

const MOTORWAY = { closed_for: { motor_scooter: 'highway=motorway', bicycle: 'highway=motorway', walking: 'highway=motorway' } };

/** An engine answering one path per mode, counting the requests it gets. */
function engine(byMode: Partial<Record<Mode, EnginePath>>): RoutingEngine & { requests: EngineRouteRequest[] } {
  const requests: EngineRouteRequest[] = [];
  return {
    name: 'fake',
    requests,
    async route(request) {
      requests.push(request);
      const found = byMode[request.mode];
      if (!found) throw new Error(`no ${request.mode} path`);
      return { paths: [found], warnings: [], engine: 'fake' };
    },
  };
}

const planner = (fake: RoutingEngine) => new RoutePlanner(fake, { info: null } as unknown as RoadNetwork, null);

describe('poor routes (issue 50)', () => {
  const straight = straightLineM([FROM, TO]);

  it('measures the straight line through every point in order', () => {
    expect(straight).toBeGreaterThan(9900);
    expect(straight).toBeLessThan(10_000);
    const via: LatLng = { lat: 5.65, lng: -0.135 };
    expect(straightLineM([FROM, via, TO])).toBeCloseTo(straightLineM([FROM, via]) + straightLineM([via, TO]), 6);
  });

  it('is poor past 2× the driving route or 3× the straight line, and only by a kilometre or more', () => {
    const driving = path([{ distance_m: 12_000, highway: 'primary' }]);
    expect(detourOf(24_500, 'bicycle', straight, driving)).toMatchObject({ reason: 'sparse_network', driving_distance_m: 12_000 });
    expect(detourOf(23_500, 'bicycle', straight, driving)).toBeNull();
    expect(detourOf(31_000, 'driving', straight, null)).toMatchObject({ reason: 'sparse_network', driving_distance_m: null, straight_line_m: Math.round(straight) });
    expect(detourOf(29_000, 'driving', straight, null)).toBeNull();
    // A 300 m trip round the block: 4× the line, but not a kilometre longer.
    expect(detourOf(1200, 'walking', 300, null)).toBeNull();
    expect(detourOf(300 + DETOUR_MIN_EXTRA_M + 1, 'walking', 300, null)).not.toBeNull();
  });

  it('names the roads of the driving route closed to the mode, ways of one road together, longest first', () => {
    const driving = path([
      { distance_m: 500, highway: 'primary', name: 'Liberation Road' },
      { distance_m: 300, highway: 'motorway_link', name: 'Tetteh Quarshie Interchange', way: 'osm:way/9', ...MOTORWAY },
      { distance_m: 6000, highway: 'motorway', name: 'Kwame Nkrumah Motorway', ref: 'N1', way: 'osm:way/7', ...MOTORWAY },
      { distance_m: 4000, highway: 'motorway', name: 'Kwame Nkrumah Motorway', ref: 'N1', way: 'osm:way/8', ...MOTORWAY },
      { distance_m: 700, highway: 'secondary', name: 'Hospital Road', closed_for: { walking: 'foot=no' } },
    ]);
    expect(closedRoads(driving, 'motor_scooter')).toEqual([
      { road_ids: ['osm:way/7', 'osm:way/8'], name: 'Kwame Nkrumah Motorway', ref: 'N1', highway: 'motorway', restriction: 'highway=motorway', distance_m: 10_000 },
      { road_ids: ['osm:way/9'], name: 'Tetteh Quarshie Interchange', ref: null, highway: 'motorway_link', restriction: 'highway=motorway', distance_m: 300 },
    ]);
    const detour = detourOf(35_000, 'motor_scooter', straight, driving)!;
    expect(detour.reason).toBe('closed_to_mode');
    expect(detourWarning(detour, 'motor_scooter')).toBe(
      'detour: 35.0 km okada route, 3.0× the driving route (11.5 km): closed to okada: the N1 motorway (Kwame Nkrumah Motorway), Tetteh Quarshie Interchange (motorway link, highway=motorway)',
    );
    // A closing tag other than the class is said; a way the engine knows nothing about is judged by its class (GraphHopper).
    expect(detourWarning(detourOf(35_000, 'walking', straight, driving)!, 'walking')).toContain('Hospital Road (secondary, foot=no)');
    const graphhopper = path([{ distance_m: 9000, highway: 'motorway', ref: 'N1' }, { distance_m: 1000, highway: 'trunk' }]);
    expect(closedRoads(graphhopper, 'motor_scooter')).toEqual([{ road_ids: ['osm:way/1'], name: null, ref: 'N1', highway: 'motorway', restriction: 'highway=motorway', distance_m: 9000 }]);
    expect(closedRoads(graphhopper, 'driving')).toEqual([]);
  });

  it('says the network is sparse when the car has no shorter way, naming the car’s distance', () => {
    const driving = path([{ distance_m: 31_500, highway: 'trunk', ref: 'N4', ...MOTORWAY }]);
    const detour = detourOf(32_000, 'motor_scooter', straight, driving)!;
    expect(detour).toMatchObject({ reason: 'sparse_network', closed_roads: [] });
    expect(detourWarning(detour, 'motor_scooter')).toBe('detour: 32.0 km okada route, 3.2× the straight line (10.0 km): sparse network here, no more direct road open to okada (driving: 31.5 km)');
  });

  it('computes the driving route as a comparison only for a non-driving route already past 2× the straight line', () => {
    expect(worthComparing('driving', 50_000, straight)).toBe(false);
    expect(worthComparing('motor_scooter', 19_000, straight)).toBe(false);
    expect(worthComparing('motor_scooter', 21_000, straight)).toBe(true);
  });

  it('plans: a long okada route carries the warning and the detour beside the snap warnings; a direct one costs no second route', async () => {
    const car = path([{ distance_m: 11_000, highway: 'motorway', ref: 'N1', name: 'Kwame Nkrumah Motorway', ...MOTORWAY }]);
    const far = engine({ motor_scooter: path([{ distance_m: 36_000, highway: 'trunk', ref: 'N4' }]), driving: car });
    const plan = await planner(far).plan({ from: { lat: FROM.lat + 0.002, lng: FROM.lng }, to: TO, mode: 'okada' });
    expect(far.requests.map((request) => request.mode)).toEqual(['motor_scooter', 'driving']);
    expect(plan.route.warnings).toEqual([
      'from was moved 222 m to the nearest road a motor_scooter route may use',
      expect.stringMatching(/^detour: 36\.0 km okada route, 3\.3× the driving route \(11\.0 km\): closed to okada: the N1 motorway \(Kwame Nkrumah Motorway\)$/),
    ]);
    expect(plan.warnings).toEqual(plan.route.warnings);
    expect(plan.route.detour).toMatchObject({ reason: 'closed_to_mode', distance_m: 36_000, driving_distance_m: 11_000 });

    const direct = engine({ motor_scooter: path([{ distance_m: 11_500, highway: 'trunk' }]), driving: car });
    const fine = await planner(direct).plan({ from: FROM, to: TO, mode: 'okada' });
    expect(direct.requests).toHaveLength(1);
    expect(fine.route.warnings).toEqual([]);
    expect(fine.route.detour).toBeUndefined();

    // No driving route to compare with (nothing for a car there): the straight line still judges.
    const walk = engine({ walking: path([{ distance_m: 40_000, highway: 'footway' }]) });
    const walked = await planner(walk).plan({ from: FROM, to: TO, mode: 'walking' });
    expect(walk.requests.map((request) => request.mode)).toEqual(['walking', 'driving']);
    expect(walked.route.detour).toMatchObject({ reason: 'sparse_network', driving_distance_m: null });

    // Callers that show no warnings ask for none, and pay for no comparison.
    const quiet = engine({ motor_scooter: path([{ distance_m: 36_000, highway: 'trunk' }]), driving: car });
    expect((await planner(quiet).plan({ from: FROM, to: TO, mode: 'okada', detour: false })).route.detour).toBeUndefined();
    expect(quiet.requests).toHaveLength(1);
  });
});
