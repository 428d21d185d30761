import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { describeWith } from '../../platform/src/testing/server-suites.js';
import { EmbeddedEngine } from './engine/embedded-engine.js';
import { GraphHopperEngine } from './graphhopper/graphhopper-engine.js';
import type { RoadNetwork } from './public/road-network.js';
import { routingEngineContract } from './routing-engine.contract.js';
import type { LatLng } from './routing-engine.port.js';
import { accraNetwork, accraPairs } from './testing/accra-pairs.js';

let network: RoadNetwork;
let pairs: Array<[LatLng, LatLng]> = [];
beforeAll(async () => {
  const accra = await accraNetwork();
  network = accra.network;
  pairs = accraPairs(accra.network, 25, 15);
}, 60_000);
afterAll(() => network?.stop());

describe('routing engine contract: embedded', () => {
  routingEngineContract(() => new EmbeddedEngine(() => network.current()), () => pairs);

  // Issue #16 applies learned traffic and corroborated hazards through the port's constraints, with no re-preparation.
  it('applies per-query constraints: traffic factors lengthen the trip, an avoided circle is never entered', async () => {
    const engine = new EmbeddedEngine(() => network.current());
    const [from, to] = pairs[0];
    const plain = (await engine.route({ points: [from, to], mode: 'driving', alternatives: 0 })).paths[0];
    const slow = (await engine.route({ points: [from, to], mode: 'driving', alternatives: 0, constraints: { trafficFactor: () => 2 } })).paths[0];
    expect(slow.duration_s).toBeCloseTo(plain.duration_s * 2, 0);
    expect(slow.distance_m).toBeCloseTo(plain.distance_m, 0);
    const coordinates = plain.legs[0].coordinates;
    const [lng, lat] = coordinates[Math.floor(coordinates.length / 2)];
    const around = (await engine.route({ points: [from, to], mode: 'driving', alternatives: 0, constraints: { avoidAreas: [{ lat, lng, radius_m: 40 }] } })).paths[0];
    const enters = around.legs[0].coordinates.some(([x, y]) => Math.hypot((y - lat) * 111_195, (x - lng) * 110_700) < 30);
    expect(enters).toBe(false);
    expect(around.duration_s).toBeGreaterThan(plain.duration_s);
  });
});

describeWith('GRAPHHOPPER_URL', 'the GraphHopper routing engine contract')('routing engine contract: GraphHopper (GRAPHHOPPER_URL)', () => {
  const graphhopper = () => new GraphHopperEngine(process.env.GRAPHHOPPER_URL!);
  routingEngineContract(graphhopper, () => pairs);

  // The query's constraints travel as a per-request custom model (flexible mode): a blocked circle is never entered.
  it('applies per-query constraints: an avoided circle is never entered; unpaved and ford avoidance and traffic are accepted, with warnings for what it cannot honour', async () => {
    const [from, to] = pairs[0];
    const plain = (await graphhopper().route({ points: [from, to], mode: 'driving', alternatives: 0 })).paths[0];
    const coordinates = plain.legs[0].coordinates;
    const [lng, lat] = coordinates[Math.floor(coordinates.length / 2)];
    const result = await graphhopper().route({ points: [from, to], mode: 'driving', alternatives: 1, constraints: { avoidAreas: [{ lat, lng, radius_m: 40 }], avoidUnpaved: true, avoidFloodCrossings: true, trafficFactor: () => 1 } });
    for (const path of result.paths) expect(path.legs[0].coordinates.some(([x, y]) => Math.hypot((y - lat) * 111_195, (x - lng) * 110_700) < 30)).toBe(false);
    expect(result.paths[0].duration_s).toBeGreaterThan(plain.duration_s);
    expect(result.warnings).toEqual(['graphhopper: learned traffic factors are not applied by this engine', 'graphhopper: flood-prone roads are not known to this engine; only fords are avoided']);
  });

  it('agrees with the embedded engine on route length: every pair within 25 %, most within 1 % (same extract, different speed models)', async () => {
    const embedded = new EmbeddedEngine(() => network.current());
    const differences: number[] = [];
    for (const [from, to] of pairs) {
      const ours = (await embedded.route({ points: [from, to], mode: 'driving', alternatives: 0 })).paths[0].distance_m;
      const theirs = (await graphhopper().route({ points: [from, to], mode: 'driving', alternatives: 0 })).paths[0].distance_m;
      differences.push(Math.abs(ours - theirs) / theirs);
    }
    expect(Math.max(...differences)).toBeLessThanOrEqual(0.25);
    expect(differences.filter((difference) => difference <= 0.01).length / differences.length).toBeGreaterThanOrEqual(0.6);
  });
});
