import { describe, expect, it } from '@jest/globals';
import { MODES } from '../domain/profiles.js';
import { random, syntheticRoads } from '../testing/synthetic-roads.js';
import { HierarchyQuery, type ContractionHierarchy } from './contraction.js';
import { buildCchTopology, contractMetric, contractsInFull, customise, dissectionOrder } from './customisable.js';
import { buildRoadGraph, NO_ACCESS, type RoadGraph } from './road-graph.js';
import { dijkstraCost } from './search.js';

/** Weights raised by a random traffic factor (1–3) per edge, some edges closed (a blocked road), as integers like the engine's. */
function trafficWeights(graph: RoadGraph, base: Int32Array, seed: number, closedShare: number): Int32Array {
  const next = random(seed);
  const weights = new Int32Array(base.length);
  for (let e = 0; e < graph.edgeCount; e++) {
    const factor = 1 + 2 * next();
    const closed = next() < closedShare;
    for (let dir = 0; dir < 2; dir++) {
      const w = base[2 * e + dir];
      weights[2 * e + dir] = w === NO_ACCESS || closed ? NO_ACCESS : Math.round(w * factor);
    }
  }
  return weights;
}

describe('customisable contraction (traffic-weighted hierarchies)', () => {
  const { graph } = buildRoadGraph(syntheticRoads(30, 11));
  const topology = buildCchTopology(graph);
  // Both ways a metric is made (docs/adr/0025): customised on the topology, or contracted in full on a small network.
  const builders: Record<string, (weights: Int32Array) => ContractionHierarchy> = {
    customised: (weights) => customise(topology, weights),
    'contracted in full': (weights) => contractMetric(graph, weights),
  };
  const cases = Object.keys(builders).flatMap((builder) => MODES.map((mode, m) => [builder, mode, m] as const));

  it('orders every node once', () => {
    const order = dissectionOrder(graph);
    expect(order.length).toBe(graph.nodeCount);
    expect(new Set(order).size).toBe(graph.nodeCount);
  });

  it('contracts small networks in full and customises larger ones', () => {
    expect(contractsInFull(graph.nodeCount)).toBe(true);
    expect(contractsInFull(90_000)).toBe(false);
  });

  it.each(cases)('%s: answers exactly what Dijkstra answers on the same traffic weights, 600 random pairs, two metrics (%s)', (builder, _mode, m) => {
    const mismatches: string[] = [];
    let reachable = 0;
    for (const [metric, closedShare] of [[0, 0], [1, 0.03]] as const) {
      const weights = trafficWeights(graph, graph.weights[m], 1000 * m + metric, closedShare);
      const query = new HierarchyQuery(builders[builder](weights));
      const next = random(300 + m + metric);
      for (let i = 0; i < 600; i++) {
        const s = Math.floor(next() * graph.nodeCount);
        const t = Math.floor(next() * graph.nodeCount);
        const expected = dijkstraCost(graph, weights, [{ node: s, cost: 0 }], [{ node: t, cost: 0 }]);
        const path = query.route([{ node: s, cost: 0 }], [{ node: t, cost: 0 }]);
        if (expected === Infinity) {
          if (path !== null) mismatches.push(`${s}→${t}: found ${path.cost}, Dijkstra finds no path`);
          continue;
        }
        reachable++;
        if (path?.cost !== expected) {
          mismatches.push(`${s}→${t}: ${path?.cost}, Dijkstra ${expected}`);
          continue;
        }
        // The unpacked path is a chain of open road edges whose traffic weights add up to the cost.
        let node = s;
        let sum = 0;
        for (const [k, edge] of path.edges.entries()) {
          const dir = path.dirs[k];
          if (graph.tail(edge, dir) !== node || weights[2 * edge + dir] === NO_ACCESS) mismatches.push(`${s}→${t}: broken chain at edge ${edge}`);
          sum += weights[2 * edge + dir];
          node = graph.head(edge, dir);
        }
        if (node !== t || sum !== expected) mismatches.push(`${s}→${t}: unpacked path ends at ${node} with ${sum}, expected ${expected}`);
      }
    }
    expect(mismatches.slice(0, 10)).toEqual([]);
    expect(reachable).toBeGreaterThan(800);
  });

  it.each(Object.keys(builders))('%s: with seeds (starts and ends inside edges) and the static weights, agrees with Dijkstra', (builder) => {
    const weights = graph.weights[0];
    const query = new HierarchyQuery(builders[builder](weights));
    const next = random(9);
    for (let i = 0; i < 300; i++) {
      const sources = [0, 1].map(() => ({ node: Math.floor(next() * graph.nodeCount), cost: Math.floor(next() * 500) }));
      const targets = [0, 1].map(() => ({ node: Math.floor(next() * graph.nodeCount), cost: Math.floor(next() * 500) }));
      expect(query.route(sources, targets)?.cost ?? Infinity).toBe(dijkstraCost(graph, weights, sources, targets));
    }
  });
});
