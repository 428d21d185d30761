import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { accraNetwork, accraPairs } from '../testing/accra-pairs.js';
import type { RoadNetwork } from '../public/road-network.js';
import type { LatLng, RouteConstraints } from '../routing-engine.port.js';
import { EmbeddedEngine } from './embedded-engine.js';

/** A made-up congestion pattern: a factor 1–3 that depends on where the road is, the same on every call. */
const congestion = (lat: number, lng: number) => 1 + 2 * Math.abs(Math.sin(lat * 917 + lng * 613));

describe('traffic-weighted routes on customised hierarchies (Accra roads)', () => {
  let network: RoadNetwork;
  let pairs: Array<[LatLng, LatLng]>;

  beforeAll(async () => {
    ({ network } = await accraNetwork());
    pairs = accraPairs(network, 60, 77);
  }, 60_000);

  afterAll(() => network.stop());

  it('finds routes as quick as the edge-based A* under the same traffic factors and closures (to the rounding of integer weights)', async () => {
    const engine = new EmbeddedEngine(() => network.current());
    // Closures on a few routes' middles, so some pairs must go around.
    const areas = await Promise.all(
      pairs.slice(0, 6).map(async ([from, to]) => {
        const line = (await engine.route({ points: [from, to], mode: 'driving', alternatives: 0 })).paths[0].legs[0].coordinates;
        const [lng, lat] = line[line.length >> 1];
        return { lat, lng, radius_m: 40 };
      }),
    );
    const customisedBefore = network.current()!.metrics.customisations;
    const mismatches: string[] = [];
    let compared = 0;
    for (const constraints of [{ trafficFactor: congestion }, { trafficFactor: congestion, avoidAreas: areas }] as RouteConstraints[]) {
      for (const [from, to] of pairs) {
        const request = { points: [from, to], mode: 'driving' as const, alternatives: 0 };
        const viaSearch = await engine.route({ ...request, constraints }).then((result) => result.paths[0], () => null);
        const viaHierarchy = await engine.route({ ...request, constraints: { ...constraints, trafficMetric: { key: 'test', version: 1 } } }).then((result) => result.paths[0], () => null);
        if (!viaSearch || !viaHierarchy) {
          if (viaSearch !== viaHierarchy) mismatches.push(`${JSON.stringify([from, to])}: found by one engine path only`);
          continue;
        }
        compared++;
        // Integer weights on the hierarchy (tenths of a second, rounded per edge) against exact products in the search.
        if (Math.abs(viaSearch.duration_s - viaHierarchy.duration_s) > 0.05 * viaSearch.legs[0].spans.length + 0.5) mismatches.push(`${JSON.stringify([from, to])}: ${viaHierarchy.duration_s} s, A* ${viaSearch.duration_s} s`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(100);
    // One customisation per key (traffic alone, traffic with the closures), reused by every pair.
    expect(network.current()!.metrics.customisations - customisedBefore).toBe(2);
  });

  it('serves the current weights until a newer version is customised, then switches', async () => {
    const engine = new EmbeddedEngine(() => network.current());
    const metrics = network.current()!.metrics;
    const [from, to] = pairs[1];
    const route = (factor: number, version: number) => engine.route({ points: [from, to], mode: 'driving', alternatives: 0, constraints: { trafficFactor: () => factor, trafficMetric: { key: 'switch', version } } });
    const plain = (await engine.route({ points: [from, to], mode: 'driving', alternatives: 0 })).paths[0];
    await route(1, 1);
    const before = metrics.customisations;
    // Factors doubled (version 2): durations follow at once, the hierarchy is re-customised only after the debounce.
    const doubled = (await route(2, 2)).paths[0];
    expect(doubled.duration_s).toBeCloseTo(plain.duration_s * 2, 0);
    expect(metrics.customisations).toBe(before);
    metrics.flush();
    expect(metrics.customisations).toBe(before + 1);
    expect((await route(2, 2)).paths[0].duration_s).toBeCloseTo(plain.duration_s * 2, 0);
    expect(metrics.customisations).toBe(before + 1);
  });
});
