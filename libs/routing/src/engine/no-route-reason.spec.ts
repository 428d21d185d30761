import type { RoadWayRecord } from '../domain/road-records.js';
import { NoRouteError } from '../domain/errors.js';
import { EmbeddedEngine } from './embedded-engine.js';
import { LoadedNetwork } from './loaded-network.js';
import { prepareGraph } from './prepare.js';

/** A straight way east along lat 5.6, node ids from `firstNode` (the last node of one is the first of the next). */
function way(id: number, firstNode: number, fromLng: number, count: number, tags: Record<string, string>): RoadWayRecord {
  return { type: 'way', id, tags, nodes: Array.from({ length: count }, (_, k) => firstNode + k), points: Array.from({ length: count }, (_, k) => [5.6, fromLng + k * 0.002] as [number, number]) };
}

describe('a mode that fails where a car does not says which restriction (issue 29)', () => {
  // Two town streets (60 nodes each, so neither is an island) joined only by a motorway, which an okada may not take.
  const records = [way(1, 1, 0, 60, { highway: 'residential' }), way(2, 60, 0.118, 30, { highway: 'motorway', oneway: 'no', name: 'Tema Motorway' }), way(3, 89, 0.176, 60, { highway: 'residential' })];
  const net = new LoadedNetwork(prepareGraph(records, 'test'), 'test');
  const engine = new EmbeddedEngine(() => net);
  afterAll(() => net.metrics.stop());

  it('routes the car, and refuses the okada naming the motorway rule and the road', () => {
    const points = [{ lat: 5.6, lng: 0.05 }, { lat: 5.6, lng: 0.25 }];
    expect(engine.routeNow({ points, mode: 'driving', alternatives: 0 }).paths[0].distance_m).toBeGreaterThan(20_000);
    let error: unknown;
    try {
      engine.routeNow({ points, mode: 'motor_scooter', alternatives: 0 });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(NoRouteError);
    expect((error as NoRouteError).details).toMatchObject({ mode: 'motor_scooter', blocked_by: [{ name: 'Tema Motorway', restriction: 'highway=motorway', road_id: 'osm:way/2' }] });
    expect((error as NoRouteError).message).toMatch(/closed to motor_scooter \(highway=motorway\)/);
  });
});
