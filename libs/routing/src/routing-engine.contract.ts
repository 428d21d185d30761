import { expect, it } from '@jest/globals';
import { greatCircleM } from '../../platform/src/geo/geodesy.js';
import { NoRoadNearbyError } from './domain/errors.js';
import { buildRoute } from './routes/route-builder.js';
import type { LatLng, RoutingEngine } from './routing-engine.port.js';

/**
 * The contract every routing engine adapter meets (README, "Routing"; one
 * suite per port, style.md): run by the embedded engine always and by the
 * GraphHopper adapter when GRAPHHOPPER_URL is set, on the same Accra pairs.
 *
 * Tolerances: a route is at least 0.95 × the straight line (snapping may cut
 * a corner) and at most 3 × it + 2 km (Accra's arterials are sparse); steps
 * built over the path add up to the route's length within 1 % or 5 m.
 */
export function routingEngineContract(engine: () => RoutingEngine, pairs: () => Array<[LatLng, LatLng]>): void {
  it('finds routes of plausible length between points on the roads, with legs that start and end at the points', async () => {
    let found = 0;
    for (const [from, to] of pairs()) {
      const result = await engine().route({ points: [from, to], mode: 'driving', alternatives: 0 });
      const path = result.paths[0];
      const straight = greatCircleM(from.lat, from.lng, to.lat, to.lng);
      expect(path.distance_m).toBeGreaterThanOrEqual(straight * 0.95);
      expect(path.distance_m).toBeLessThanOrEqual(straight * 3 + 2000);
      expect(path.duration_s).toBeGreaterThan(0);
      const leg = path.legs[0];
      const [startLng, startLat] = leg.coordinates[0];
      const [endLng, endLat] = leg.coordinates[leg.coordinates.length - 1];
      expect(greatCircleM(from.lat, from.lng, startLat, startLng)).toBeLessThan(100);
      expect(greatCircleM(to.lat, to.lng, endLat, endLng)).toBeLessThan(100);
      found++;
    }
    expect(found).toBe(pairs().length);
  });

  it('hands back spans that cover the path, over which well-formed steps are built', async () => {
    for (const [from, to] of pairs().slice(0, 10)) {
      const path = (await engine().route({ points: [from, to], mode: 'driving', alternatives: 0 })).paths[0];
      for (const leg of path.legs) {
        expect(leg.spans[0].from).toBe(0);
        expect(leg.spans[leg.spans.length - 1].to).toBe(leg.coordinates.length - 1);
        for (let k = 1; k < leg.spans.length; k++) expect(leg.spans[k].from).toBe(leg.spans[k - 1].to);
      }
      const route = buildRoute(path, { mode: 'driving', narration: 'street', landmarks: null });
      expect(route.steps[0].turn_class).toBe('depart');
      expect(route.steps[route.steps.length - 1].turn_class).toBe('arrive');
      const total = route.steps.reduce((sum, step) => sum + step.distance_m, 0);
      expect(Math.abs(total - route.distance_m)).toBeLessThanOrEqual(Math.max(5, route.distance_m * 0.01));
      for (const step of route.steps) {
        expect(step.coordinates.length).toBeGreaterThanOrEqual(2);
        expect(step.instruction).not.toBe('');
      }
    }
  });

  it('routes walkers slower than cars and offers alternatives that differ', async () => {
    const [from, to] = pairs()[0];
    const car = await engine().route({ points: [from, to], mode: 'driving', alternatives: 2 });
    const walk = await engine().route({ points: [from, to], mode: 'walking', alternatives: 0 });
    expect(walk.paths[0].duration_s).toBeGreaterThan(car.paths[0].duration_s * 2);
    const lines = car.paths.map((path) => JSON.stringify(path.legs[0].coordinates));
    expect(new Set(lines).size).toBe(lines.length);
  });

  it('says NO_ROAD_NEARBY for a point far from every road', async () => {
    const [, to] = pairs()[0];
    await expect(engine().route({ points: [{ lat: 5.3, lng: -0.2 }, to], mode: 'driving', alternatives: 0 })).rejects.toThrow(NoRoadNearbyError);
  });
}
