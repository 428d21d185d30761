import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { describeWith } from '../../platform/src/testing/server-suites.js';
import { EmbeddedEngine } from './engine/embedded-engine.js';
import { GraphHopperEngine } from './graphhopper/graphhopper-engine.js';
import type { RoadNetwork } from './road-network.js';
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
});

describeWith('GRAPHHOPPER_URL', 'the GraphHopper routing engine contract')('routing engine contract: GraphHopper (GRAPHHOPPER_URL)', () => {
  const graphhopper = () => new GraphHopperEngine(process.env.GRAPHHOPPER_URL!);
  routingEngineContract(graphhopper, () => pairs);

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
