import { projectOnSegment } from '../../../platform/src/geo/geodesy.js';
import { buildRoadGraph, NO_ACCESS } from './road-graph.js';
import { SpatialIndex } from './spatial-index.js';
import { random, syntheticRoads } from '../testing/synthetic-roads.js';

/** The nearest-first search must answer what scanning every segment answers (the snap an earlier version made). */
describe('SpatialIndex.nearest', () => {
  const { graph } = buildRoadGraph(syntheticRoads(24, 7));
  const index = new SpatialIndex(graph);
  const weights = graph.weightsOf('driving');
  let lat0 = Infinity, lat1 = -Infinity, lng0 = Infinity, lng1 = -Infinity;
  for (let p = 0; p < graph.geomLat.length; p++) {
    lat0 = Math.min(lat0, graph.geomLat[p]);
    lat1 = Math.max(lat1, graph.geomLat[p]);
    lng0 = Math.min(lng0, graph.geomLng[p]);
    lng1 = Math.max(lng1, graph.geomLng[p]);
  }

  /** Every segment of an open edge, in geometry order: the nearest, the first of equals. */
  const scan = (lat: number, lng: number, radiusM: number, open: Int32Array | null) => {
    let best: { edge: number; distanceM: number; lat: number; lng: number } | null = null;
    for (let edge = 0; edge < graph.edgeCount; edge++) {
      if (open && open[2 * edge] === NO_ACCESS && open[2 * edge + 1] === NO_ACCESS) continue;
      for (let p = graph.geomOffset[edge]; p < graph.geomOffset[edge + 1] - 1; p++) {
        const hit = projectOnSegment(lat, lng, graph.geomLat[p], graph.geomLng[p], graph.geomLat[p + 1], graph.geomLng[p + 1]);
        if (hit.distanceM <= radiusM && (!best || hit.distanceM < best.distanceM)) best = { edge, distanceM: hit.distanceM, lat: hit.lat, lng: hit.lng };
      }
    }
    return best;
  };

  it('finds the nearest segment of an open edge, as a full scan does, on 600 random points', () => {
    const next = random(11);
    let found = 0;
    for (let i = 0; i < 600; i++) {
      const lat = lat0 - 0.01 + next() * (lat1 - lat0 + 0.02);
      const lng = lng0 - 0.01 + next() * (lng1 - lng0 + 0.02);
      const radius = i % 3 === 0 ? 150 : 1000;
      const open = i % 2 === 0 ? weights : null;
      const expected = scan(lat, lng, radius, open);
      const snap = index.nearest(lat, lng, radius, open);
      if (!expected) {
        expect(snap).toBeNull();
        continue;
      }
      found++;
      expect(snap).not.toBeNull();
      expect(snap!.distanceM).toBe(expected.distanceM);
      expect([snap!.lat, snap!.lng]).toEqual([expected.lat, expected.lng]);
    }
    expect(found).toBeGreaterThan(300);
  });

  it('snaps a point on a junction to the same edge every time, and a point beyond the radius to nothing', () => {
    const p = graph.geomOffset[5];
    const first = index.nearest(graph.geomLat[p], graph.geomLng[p], 1000, weights);
    expect(first!.distanceM).toBe(0);
    expect(index.nearest(graph.geomLat[p], graph.geomLng[p], 1000, weights)).toEqual(first);
    expect(index.nearest(lat1 + 1, lng1 + 1, 1000, weights)).toBeNull();
  });
});
