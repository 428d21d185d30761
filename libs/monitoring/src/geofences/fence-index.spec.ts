import { countLoopTurns } from '../../../platform/src/testing/loop-turns.js';
import { FENCE_POLYGON_LIMITS, shapeOf, type GeofenceDefinition } from './domain/geofence.js';
import { FenceIndex } from './public/fence-index.js';
import { seededRandom } from '../../../../test/support/seeded-random.js';
import { destination } from '../../../platform/src/geo/geodesy.js';
import { Polygon, type Shape } from './domain/geometry.js';

type Fence = Pick<GeofenceDefinition, 'account_id' | 'fence_id' | 'fence_type' | 'customer_id' | 'loan_id' | 'center' | 'radius_m' | 'polygon'>;

const ACCOUNTS = ['acc_a', 'acc_b'];
const CUSTOMERS = ['c1', 'c2', 'c3'];

/**
 * Random fences over a 1.2° square around Accra, dense enough that they
 * overlap: circles from 10 m to 20 km, star-shaped polygons (concave, some
 * with a hole, some with many vertices) from ~100 m to ~30 km across.
 */
function randomFences(count: number, next: () => number): Fence[] {
  return Array.from({ length: count }, (_, i) => {
    const lat = 5 + next() * 1.2;
    const lng = -0.8 + next() * 1.2;
    const common = {
      account_id: ACCOUNTS[i % ACCOUNTS.length],
      fence_id: `gf_${i}`,
      customer_id: next() < 0.4 ? null : CUSTOMERS[Math.floor(next() * CUSTOMERS.length)],
      loan_id: next() < 0.5 ? null : `loan-${i}`,
    };
    if (next() < 0.5) {
      const radius = 10 * 2000 ** next();
      return { ...common, fence_type: 'circle', center: { lat, lng }, radius_m: radius, polygon: null };
    }
    const size = 100 * 300 ** next();
    const vertices = next() < 0.1 ? 80 + Math.floor(next() * 100) : 3 + Math.floor(next() * 12);
    const ring: number[][] = [];
    for (let v = 0; v < vertices; v++) {
      const bearing = (360 * (v + 0.3 + 0.4 * next())) / vertices;
      const point = destination(lat, lng, bearing, size * (0.3 + 0.7 * next()));
      ring.push([point.lng, point.lat]);
    }
    const rings = [ring];
    if (vertices > 5 && next() < 0.3) {
      const hole: number[][] = [];
      for (let v = 0; v < 6; v++) {
        const point = destination(lat, lng, 60 * v, size * 0.1);
        hole.push([point.lng, point.lat]);
      }
      rings.push(hole);
    }
    const polygon = Polygon.parse({ type: 'Polygon', coordinates: rings }, 'polygon', FENCE_POLYGON_LIMITS).toGeoJson();
    return { ...common, fence_type: 'polygon', center: null, radius_m: null, polygon };
  });
}

/** Points spread over the area, plus points on and right beside every fence's edge, where index and geometry are likeliest to disagree. */
function probePoints(fences: Fence[], next: () => number): Array<{ lat: number; lng: number }> {
  const points = Array.from({ length: 6000 }, () => ({ lat: 4.9 + next() * 1.4, lng: -0.9 + next() * 1.4 }));
  for (const fence of fences) {
    for (let k = 0; k < 6; k++) {
      const jitter = (next() - 0.5) * 2e-6;
      if (fence.center && fence.radius_m !== null) {
        const onEdge = destination(fence.center.lat, fence.center.lng, next() * 360, fence.radius_m * (1 + (next() - 0.5) * 1e-6));
        points.push(onEdge);
      } else if (fence.polygon) {
        const ring = fence.polygon.coordinates[Math.floor(next() * fence.polygon.coordinates.length)];
        const v = Math.floor(next() * (ring.length - 1));
        const t = next();
        points.push({ lat: ring[v][1] + (ring[v + 1][1] - ring[v][1]) * t + jitter, lng: ring[v][0] + (ring[v + 1][0] - ring[v][0]) * t - jitter });
      }
    }
  }
  return points;
}

function bruteForce(fences: Array<Fence & { shape: Shape }>, accountId: string, customerId: string, lat: number, lng: number): string[] {
  return fences
    .filter((fence) => fence.account_id === accountId && (fence.customer_id === null || fence.customer_id === customerId))
    .filter((fence) => fence.shape.contains(lat, lng))
    .map((fence) => fence.fence_id)
    .sort();
}

describe('FenceIndex', () => {
  const next = seededRandom(42);
  const fences = randomFences(400, next);
  const index = new FenceIndex();
  for (const fence of fences) index.add(fence);
  const points = probePoints(fences, next);
  const shaped = fences.map((fence) => ({ ...fence, shape: shapeOf(fence) }));

  it('answers exactly what testing every fence would, for thousands of points', () => {
    let positives = 0;
    const mismatches: string[] = [];
    for (const [i, { lat, lng }] of points.entries()) {
      const accountId = ACCOUNTS[i % ACCOUNTS.length];
      const customerId = CUSTOMERS[i % CUSTOMERS.length];
      const expected = bruteForce(shaped, accountId, customerId, lat, lng);
      const actual = index
        .fencesContaining(accountId, customerId, lat, lng)
        .map((hit) => hit.fence_id)
        .sort();
      if (JSON.stringify(actual) !== JSON.stringify(expected)) mismatches.push(`${lat},${lng} ${accountId}/${customerId}: ${actual} ≠ ${expected}`);
      positives += expected.length;
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
    // The probe set really exercises the index: many points are inside fences, many outside.
    expect(positives).toBeGreaterThan(points.length / 4);
    expect(points.length).toBeGreaterThan(8000);
  });

  it('answers the fence fields the breach needs, and only fences of the caller and its customer', () => {
    const fence = fences.find((candidate) => candidate.fence_type === 'circle' && candidate.customer_id !== null && candidate.radius_m! > 100)!;
    const { lat, lng } = fence.center!;
    const hits = index.fencesContaining(fence.account_id, fence.customer_id!, lat, lng);
    expect(hits).toContainEqual({ fence_id: fence.fence_id, fence_type: 'circle', customer_id: fence.customer_id, loan_id: fence.loan_id });
    const otherCustomer = CUSTOMERS.find((customer) => customer !== fence.customer_id)!;
    expect(index.fencesContaining(fence.account_id, otherCustomer, lat, lng).map((hit) => hit.fence_id)).not.toContain(fence.fence_id);
    expect(index.fencesContaining('acc_unknown', fence.customer_id!, lat, lng)).toEqual([]);
    const otherAccount = ACCOUNTS.find((account) => account !== fence.account_id)!;
    expect(index.fencesContaining(otherAccount, fence.customer_id!, lat, lng).map((hit) => hit.fence_id)).not.toContain(fence.fence_id);
  });

  it('stays small: a few dozen cells per fence on average', () => {
    const cells = fences.reduce((sum, fence) => sum + index.summaryOf(fence.account_id, fence.fence_id)!.cell_count, 0);
    expect(index.size).toBe(fences.length);
    expect(cells / fences.length).toBeLessThan(80);
  });

  it('adds idempotently and removes completely', () => {
    const own = new FenceIndex();
    const circle: Fence = { account_id: 'acc', fence_id: 'gf_x', fence_type: 'circle', customer_id: null, loan_id: null, center: { lat: 5.6, lng: -0.19 }, radius_m: 300, polygon: null };
    own.add(circle);
    own.add(circle);
    expect(own.fencesContaining('acc', 'anyone', 5.6, -0.19)).toHaveLength(1);
    expect(own.size).toBe(1);
    const sibling = { ...circle, fence_id: 'gf_y' };
    own.add(sibling);
    expect(own.fencesContaining('acc', 'anyone', 5.6, -0.19).map((hit) => hit.fence_id).sort()).toEqual(['gf_x', 'gf_y']);
    expect(own.remove('acc', 'gf_x')).toBe(true);
    expect(own.remove('acc', 'gf_x')).toBe(false);
    expect(own.fencesContaining('acc', 'anyone', 5.6, -0.19).map((hit) => hit.fence_id)).toEqual(['gf_y']);
    own.remove('acc', 'gf_y');
    expect(own.fencesContaining('acc', 'anyone', 5.6, -0.19)).toEqual([]);
    expect(own.size).toBe(0);
    expect(own.countFor('acc')).toBe(0);
  });

  it('answers nothing for coordinates that are not a point', () => {
    const fence = fences[0];
    expect(index.fencesContaining(fence.account_id, 'c1', Number.NaN, 0)).toEqual([]);
    expect(index.fencesContaining(fence.account_id, 'c1', 91, 0)).toEqual([]);
  });

  it('indexes a fence the same when its cover is computed in slices, letting the event loop in between (docs/adr/0042)', async () => {
    // A 1,000-vertex polygon, as an isochrone fence's outline can be.
    const ring: number[][] = [];
    for (let v = 0; v < 1000; v++) {
      // Jagged, as an outline of H3 cells is: a long boundary, so thousands of candidate cells.
      const point = destination(5.6, -0.19, (360 * v) / 1000, 8000 * (v % 2 === 0 ? 1 : 0.8));
      ring.push([point.lng, point.lat]);
    }
    ring.push(ring[0]);
    const polygon: Fence = { account_id: 'acc', fence_id: 'gf_iso', fence_type: 'polygon', customer_id: null, loan_id: null, center: null, radius_m: null, polygon: { type: 'Polygon', coordinates: [ring] } };
    const whole = new FenceIndex();
    const sliced = new FenceIndex();
    const loop = countLoopTurns();
    const summary = await sliced.addSliced(polygon);
    const turns = loop.stop();
    expect(summary).toEqual(whole.add(polygon));
    expect(turns).toBeGreaterThan(3);
    const next = seededRandom(0x42);
    for (let i = 0; i < 2000; i++) {
      const lat = 5.5 + next() * 0.2;
      const lng = -0.29 + next() * 0.2;
      expect(sliced.fencesContaining('acc', 'c', lat, lng)).toEqual(whole.fencesContaining('acc', 'c', lat, lng));
    }
  });
});
