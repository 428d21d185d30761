import { describe, expect, it } from '@jest/globals';
import { MODES } from '../domain/profiles.js';
import { random, syntheticRoads } from '../testing/synthetic-roads.js';
import { contract, HierarchyQuery } from './contraction.js';
import { arcsOf } from './prepare.js';
import { buildRoadGraph, NO_ACCESS } from './road-graph.js';
import { dijkstraCost, EdgeSearch, Landmarks } from './search.js';

describe('contraction hierarchy', () => {
  const { graph } = buildRoadGraph(syntheticRoads(30, 7));

  it.each(MODES.map((mode, m) => [mode, m] as const))('answers the same cost as plain Dijkstra on 1,500 random pairs (%s)', (_mode, m) => {
    const weights = graph.weights[m];
    const ch = contract(arcsOf(graph, weights));
    const query = new HierarchyQuery(ch);
    const next = random(100 + m);
    let reachable = 0;
    const mismatches: string[] = [];
    for (let i = 0; i < 1500; i++) {
      const s = Math.floor(next() * graph.nodeCount);
      const t = Math.floor(next() * graph.nodeCount);
      const expected = dijkstraCost(graph, weights, [{ node: s, cost: 0 }], [{ node: t, cost: 0 }]);
      const path = query.route([{ node: s, cost: 0 }], [{ node: t, cost: 0 }]);
      if (expected === Infinity) {
        if (path !== null) mismatches.push(`${s}→${t}: found ${path.cost}, Dijkstra finds no path`);
        continue;
      }
      reachable++;
      if (path?.cost !== expected) mismatches.push(`${s}→${t}: ${path?.cost}, Dijkstra ${expected}`);
      // The unpacked path is a chain of open road edges whose weights add up to the cost.
      let node = s;
      let sum = 0;
      for (const [k, edge] of (path?.edges ?? []).entries()) {
        const dir = path!.dirs[k];
        if (graph.tail(edge, dir) !== node || weights[2 * edge + dir] === NO_ACCESS) mismatches.push(`${s}→${t}: broken chain at edge ${edge}`);
        sum += weights[2 * edge + dir];
        node = graph.head(edge, dir);
      }
      if (node !== t || sum !== expected) mismatches.push(`${s}→${t}: unpacked path ends at ${node} with ${sum}`);
    }
    expect(mismatches).toEqual([]);
    expect(reachable).toBeGreaterThan(1000);
  });

  it('seeds with costs (a start in the middle of an edge) and multiple targets', () => {
    const weights = graph.weights[0];
    const query = new HierarchyQuery(contract(arcsOf(graph, weights)));
    const next = random(5);
    for (let i = 0; i < 300; i++) {
      const sources = [0, 1].map(() => ({ node: Math.floor(next() * graph.nodeCount), cost: Math.floor(next() * 500) }));
      const targets = [0, 1].map(() => ({ node: Math.floor(next() * graph.nodeCount), cost: Math.floor(next() * 500) }));
      const expected = dijkstraCost(graph, weights, sources, targets);
      const path = query.route(sources, targets);
      expect(path?.cost ?? Infinity).toBe(expected);
    }
  });

  it('edge-based A* with ALT bounds and with raised weights agrees with Dijkstra on the same raised weights', () => {
    const weights = graph.weights[0];
    const landmarks = Landmarks.select(graph, weights, 6);
    const search = new EdgeSearch(graph);
    const next = random(9);
    const factors = new Float64Array(graph.edgeCount).map(() => 1 + Math.floor(next() * 3));
    const raised = weights.map((w, i) => (w === NO_ACCESS ? w : w * factors[i >> 1]));
    let compared = 0;
    for (let i = 0; i < 300; i++) {
      const s = Math.floor(next() * graph.nodeCount);
      const t = Math.floor(next() * graph.nodeCount);
      // Start by leaving s along any open edge; end on reaching t (an edge leaving t, entered at no cost).
      const sources = leaving(s).filter((seed) => weights[2 * seed.edge + seed.dir] !== NO_ACCESS);
      const targets = leaving(t);
      if (s === t || sources.length === 0 || targets.length < 2) continue;
      const expected = Math.min(...sources.map((seed) => dijkstraCost(graph, raised, [{ node: graph.head(seed.edge, seed.dir), cost: raised[2 * seed.edge + seed.dir] }], [{ node: t, cost: 0 }])));
      const path = search.route(
        sources.map((seed) => ({ ...seed, cost: weights[2 * seed.edge + seed.dir] })),
        targets,
        { weights, modeIndex: -1, factor: (edge) => factors[edge], heuristic: (v) => landmarks.bound(v, t) },
      );
      compared++;
      if (expected === Infinity) expect(path).toBeNull();
      else expect(path?.cost).toBe(expected);
    }
    expect(compared).toBeGreaterThan(200);

    function leaving(node: number) {
      const seeds: Array<{ edge: number; dir: number; cost: number }> = [];
      for (let k = graph.incidentOffset[node]; k < graph.incidentOffset[node + 1]; k++) {
        const edge = graph.incidentEdges[k];
        seeds.push({ edge, dir: graph.edgeFrom[edge] === node ? 0 : 1, cost: 0 });
      }
      return seeds;
    }
  });
});
