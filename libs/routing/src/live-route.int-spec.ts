import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { latLngToCell } from 'h3-js';
import type { EventRegistry, EventStore, ReadStore } from '../../platform/src/index.js';
import { bucketOf, MAX_FACTOR, MIN_FACTOR, MIN_REPORTERS, MIN_SAMPLES, TRAFFIC_CELL_RES } from '../../traffic/src/index.js';
import { TrafficView } from '../../traffic/src/testing/traffic-view.js';
import { EmbeddedEngine } from './engine/embedded-engine.js';
import { projectOnSegment } from '../../platform/src/geo/geodesy.js';
import { RoadConditionsSlot, trafficLevel, type RoadHazard } from './road-conditions.port.js';
import type { RoadNetwork } from './public/road-network.js';
import { INCIDENT_NEAR_ROUTE_M, RoutePlanner } from './public/route-planner.js';
import { accraNetwork, accraPairs } from './testing/accra-pairs.js';

/**
 * A live route's traffic and incident fields (docs/adr/0025), against the
 * plain look-ups they are taken from: each step's factor is its middle
 * point's H3 cell's learned factor (the view keeps the answers per point for
 * an hour and a set of samples), and a hazard counts when it is within reach
 * of some segment of the line.
 */
describe('live routes on the Accra roads: step traffic and hazards near the route', () => {
  let network: RoadNetwork;

  beforeAll(async () => {
    ({ network } = await accraNetwork());
  }, 60_000);

  afterAll(() => network.stop());

  it('gives every step the factor of its middle cell and counts exactly the hazards within reach of the line, before and after a new sample', async () => {
    const engine = new EmbeddedEngine(() => network.current());
    const pairs = accraPairs(network, 12, 31);
    const view = new TrafficView({} as EventStore, {} as ReadStore, { assertKnown: () => undefined } as unknown as EventRegistry);
    const at = new Date('2026-11-23T08:00:00Z');
    const lines: Array<Array<[number, number]>> = [];
    for (const [i, [from, to]] of pairs.entries()) {
      const path = (await engine.route({ points: [from, to], mode: 'driving', alternatives: 0 })).paths[0];
      const line = path.legs[0].coordinates;
      lines.push(line);
      // Half the routes' cells learned (various factors; enough samples from enough reporters, docs/adr/0031), the other half left unknown.
      if (i % 2 === 0) {
        for (let r = 0; r < MIN_SAMPLES; r++) view.learned.add({ at: at.getTime(), bucket: 8, cells: [...new Set(line.map(([lng, lat]) => latLngToCell(lat, lng, TRAFFIC_CELL_RES)))], observed_s: path.duration_s * (1.2 + i / 10), static_s: path.duration_s, reporter: `r${r % MIN_REPORTERS}` });
      }
      // Incidents a little off each route's middle (some within reach, some not).
      const [lng, lat] = line[line.length >> 1];
      for (const reporter of ['r1', 'r2']) view.board.apply({ report_id: `t${i}${reporter}`, kind: i % 3 === 0 ? 'flooding' : 'accident', lat: lat + (i % 4) * 0.0006, lng, note: null, reporter, reported_at: '2026-11-23T07:30:00.000Z' } as never);
    }
    const slot = new RoadConditionsSlot();
    slot.current = view;
    const planner = new RoutePlanner(engine, network, null, slot);
    const expectedFactor = (lat: number, lng: number) => {
      const factor = view.learned.factor(latLngToCell(lat, lng, TRAFFIC_CELL_RES), bucketOf(at));
      return trafficLevel(factor === undefined ? undefined : Math.min(MAX_FACTOR, Math.max(MIN_FACTOR, factor)));
    };
    const near = (hazards: RoadHazard[], line: Array<[number, number]>) =>
      hazards.filter((hazard) => line.some((a, k) => k < line.length - 1 && projectOnSegment(hazard.lat, hazard.lng, a[1], a[0], line[k + 1][1], line[k + 1][0]).distanceM <= INCIDENT_NEAR_ROUTE_M + hazard.radius_m));
    let learnedSteps = 0;
    let nearCount = 0;
    const check = async () => {
      for (const [from, to] of pairs) {
        const { route } = await planner.plan({ from, to, depart_at: at.toISOString() });
        for (const step of route.steps) {
          const { traffic_factor, traffic_severity, traffic_color, traffic_source } = step;
          if (step.turn_class === 'arrive') {
            expect(traffic_severity).toBe('unknown');
            continue;
          }
          const [lng, lat] = step.coordinates[(step.coordinates.length - 1) >> 1];
          expect({ traffic_factor, traffic_severity, traffic_color, traffic_source }).toEqual(expectedFactor(lat, lng));
          if (traffic_severity !== 'unknown') learnedSteps++;
        }
        const expected = near(view.hazards(at), route.geometry.coordinates);
        expect(route.incident_count).toBe(expected.length);
        for (const hazard of expected) expect(route.warnings).toContain(`${hazard.kind} reported near the route (${hazard.corroborations} report${hazard.corroborations === 1 ? '' : 's'})`);
        nearCount += expected.length;
      }
    };
    await check();
    // A new reporter's sample on every route's cells: the remembered answers give way to the new factors (unlearned cells stay on the prior).
    for (const line of lines) view.learned.add({ at: at.getTime() + 60_000, bucket: 8, cells: [...new Set(line.map(([lng, lat]) => latLngToCell(lat, lng, TRAFFIC_CELL_RES)))], observed_s: 500, static_s: 200, reporter: 'late' });
    await check();
    expect(learnedSteps).toBeGreaterThan(0);
    expect(nearCount).toBeGreaterThan(0);
  }, 60_000);
});
