import type { RoadWayRecord } from '../domain/road-records.js';
import { seededRandom as random } from '../../../platform/src/testing/seeded-random.js';

/** A seeded PRNG (mulberry32): property tests and benchmarks replay the same graphs. */
export { random };

const CLASSES = ['residential', 'residential', 'residential', 'unclassified', 'tertiary', 'secondary', 'primary', 'trunk', 'motorway', 'track', 'footway', 'service'];

/**
 * A road-like network as road records: a jittered grid of `size` × `size`
 * intersections around Accra, blocks joined by ways of mixed classes (some
 * one-way, some unpaved, some missing), with geometry nodes between. The
 * shape (planar, degree ≤ 4, mixed speeds, one-way streets) is what makes
 * contraction behave as on real roads; a random graph would not.
 */
export function syntheticRoads(size: number, seed: number): RoadWayRecord[] {
  const next = random(seed);
  const step = 0.0015;
  const idOf = (r: number, c: number) => r * size + c + 1;
  const pointOf = (r: number, c: number): [number, number] => [5.5 + r * step + (next() - 0.5) * step * 0.3, -0.25 + c * step + (next() - 0.5) * step * 0.3];
  const points = new Map<number, [number, number]>();
  for (let r = 0; r < size; r++) for (let c = 0; c < size; c++) points.set(idOf(r, c), pointOf(r, c));
  const ways: RoadWayRecord[] = [];
  let wayId = 1;
  let extraNode = size * size + 10;
  const link = (a: number, b: number, arterial: boolean) => {
    const roll = next();
    if (!arterial && roll < 0.08) return;
    const highway = arterial ? (next() < 0.5 ? 'primary' : 'secondary') : CLASSES[Math.floor(next() * CLASSES.length)];
    const tags: Record<string, string> = { highway };
    if (next() < 0.15) tags.oneway = next() < 0.8 ? 'yes' : '-1';
    if (next() < 0.1) tags.surface = 'unpaved';
    if (next() < 0.05) tags.motorcycle = 'no';
    const pa = points.get(a)!;
    const pb = points.get(b)!;
    const middle = extraNode++;
    const mid: [number, number] = [(pa[0] + pb[0]) / 2 + (next() - 0.5) * step * 0.1, (pa[1] + pb[1]) / 2 + (next() - 0.5) * step * 0.1];
    ways.push({ type: 'way', id: wayId++, tags, nodes: [a, middle, b], points: [pa, mid, pb] });
  };
  for (let r = 0; r < size; r++) {
    for (let c = 0; c < size; c++) {
      if (c + 1 < size) link(idOf(r, c), idOf(r, c + 1), r % 10 === 0);
      if (r + 1 < size) link(idOf(r, c), idOf(r + 1, c), c % 10 === 0);
    }
  }
  return ways;
}
