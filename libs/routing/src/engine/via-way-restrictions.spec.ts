import { describe, expect, it } from '@jest/globals';
import { MODES } from '../domain/profiles.js';
import type { RoadRecord, RoadWayRecord, TurnRestrictionRecord } from '../domain/road-records.js';
import { random, syntheticRoads } from '../testing/synthetic-roads.js';
import { LoadedNetwork } from './loaded-network.js';
import { prepareGraph } from './prepare.js';
import { NO_ACCESS, type RoadGraph } from './road-graph.js';
import { dijkstraCost, type EdgeSeed } from './search.js';
import { TurnSequences } from './turn-sequences.js';

/** Synthetic roads with random restrictions: via node, via one way, via two ways; `no_*` and `only_*`. */
function restrictedRoads(size: number, seed: number, count: number): RoadRecord[] {
  const ways = syntheticRoads(size, seed);
  const next = random(seed + 1);
  const ends = (way: RoadWayRecord) => [way.nodes[0], way.nodes[way.nodes.length - 1]];
  const touching = new Map<number, RoadWayRecord[]>();
  for (const way of ways) for (const node of ends(way)) touching.set(node, [...(touching.get(node) ?? []), way]);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)];
  const otherEnd = (way: RoadWayRecord, node: number) => ends(way).find((end) => end !== node)!;
  const restrictions: TurnRestrictionRecord[] = [];
  for (let id = 1; restrictions.length < count && id < count * 20; id++) {
    const kind = next();
    const restriction = next() < 0.6 ? 'no_left_turn' : 'only_straight_on';
    const record = { type: 'restriction' as const, id, restriction, only_for: null, except: [] };
    if (kind < 0.2) {
      const node = pick([...touching.keys()]);
      const [from, to] = [pick(touching.get(node)!), pick(touching.get(node)!)];
      if (from !== to) restrictions.push({ ...record, from: from.id, via_node: node, via_ways: [], to: to.id });
      continue;
    }
    const via = [pick(ways)];
    let [start, end] = ends(via[0]);
    if (kind > 0.7) {
      const second = pick(touching.get(end)!.filter((way) => way !== via[0]));
      if (!second) continue;
      end = otherEnd(second, end);
      via.push(second);
    }
    const from = pick(touching.get(start)!.filter((way) => !via.includes(way)));
    const to = pick(touching.get(end)!.filter((way) => !via.includes(way) && way !== from));
    if (!from || !to) continue;
    restrictions.push({ ...record, from: from.id, via_node: null, via_ways: via.map((way) => way.id), to: to.id });
  }
  return [...ways, ...restrictions];
}

/**
 * The oracle: Dijkstra over (the last L − 1 directed edges travelled), L the
 * longest forbidden sequence, checking each extension against every sequence
 * and every forbidden via-node turn — the expanded state graph written out,
 * with none of the automaton's cleverness.
 */
function oracleCost(graph: RoadGraph, modeIndex: number, sources: EdgeSeed[], targets: EdgeSeed[]): number {
  const weights = graph.weights[modeIndex];
  const sequences: number[][] = [];
  for (let i = 0; i < graph.viaWayModes.length; i++) {
    if ((graph.viaWayModes[i] & (1 << modeIndex)) !== 0) sequences.push(Array.from(graph.viaWayEdges.subarray(graph.viaWayOffset[i], graph.viaWayOffset[i + 1])));
  }
  const keep = Math.max(1, ...sequences.map((sequence) => sequence.length - 1));
  const violates = (path: number[]) => sequences.some((sequence) => sequence.length <= path.length && sequence.every((x, i) => path[path.length - sequence.length + i] === x));
  const dist = new Map<string, number>();
  const queue: Array<{ cost: number; history: number[] }> = [];
  const push = (cost: number, history: number[]) => {
    const key = history.join(',');
    if ((dist.get(key) ?? Infinity) <= cost) return;
    dist.set(key, cost);
    queue.push({ cost, history });
  };
  for (const seed of sources) push(seed.cost, [2 * seed.edge + seed.dir]);
  let best = Infinity;
  while (queue.length > 0) {
    let min = 0;
    for (let i = 1; i < queue.length; i++) if (queue[i].cost < queue[min].cost) min = i;
    const { cost, history } = queue[min];
    queue[min] = queue[queue.length - 1];
    queue.pop();
    if (cost >= best) break;
    if (cost > dist.get(history.join(','))!) continue;
    const last = history[history.length - 1];
    const edge = last >> 1;
    const node = graph.head(edge, last & 1);
    const allowed = (next: number) => !graph.turnForbidden(edge, node, next >> 1, modeIndex) && !violates([...history, next]);
    for (const target of targets) {
      if (graph.tail(target.edge, target.dir) !== node || target.edge === edge) continue;
      if (allowed(2 * target.edge + target.dir)) best = Math.min(best, cost + target.cost);
    }
    for (let k = graph.incidentOffset[node]; k < graph.incidentOffset[node + 1]; k++) {
      const next = graph.incidentEdges[k];
      const directed = 2 * next + (graph.edgeFrom[next] === node ? 0 : 1);
      if (next === edge || weights[directed] === NO_ACCESS || !allowed(directed)) continue;
      push(cost + weights[directed], [...history, directed].slice(-keep));
    }
  }
  return best;
}

describe('via-way restrictions on random pairs', () => {
  const prepared = prepareGraph(restrictedRoads(16, 21, 70), 'test');
  const net = new LoadedNetwork(prepared, 'test');
  const graph = net.graph;

  it('resolves most random restrictions into sequences', () => {
    expect(prepared.meta.stats.restrictions_via_way_applied).toBeGreaterThan(40);
    expect(prepared.meta.stats.via_way_sequences).toBeGreaterThan(prepared.meta.stats.restrictions_via_way_applied);
  });

  it.each(MODES.slice(0, 3).map((mode, m) => [mode, m] as const))('the hierarchy (checked, re-planned) and the restriction-aware search answer the oracle’s cost, legally (%s)', (mode, m) => {
    const next = random(300 + m);
    const weights = graph.weights[m];
    const mismatches: string[] = [];
    let routed = 0;
    let bitten = 0;
    for (let i = 0; i < 150; i++) {
      const point = () => ({ lat: 5.5 + next() * 0.022, lng: -0.25 + next() * 0.022 });
      const from = net.snap(point().lat, point().lng, mode);
      const to = net.snap(point().lat, point().lng, mode);
      if (!from || !to || from.edge === to.edge) continue;
      const sources = net.sourceSeeds(from, weights);
      const targets = net.targetSeeds(to, weights);
      const expected = oracleCost(graph, m, sources, targets);
      const free = dijkstraCost(graph, weights, sources.map((s) => ({ node: graph.head(s.edge, s.dir), cost: s.cost })), targets.map((t) => ({ node: graph.tail(t.edge, t.dir), cost: t.cost })));
      const hierarchy = net.leg(from, to, mode);
      const search = net.leg(from, to, mode, () => 1);
      if (expected === Infinity) {
        if (hierarchy || search) mismatches.push(`${i}: found a route, the oracle none`);
        continue;
      }
      routed++;
      if (expected > free + 1e-6) bitten++;
      for (const [name, leg] of [['hierarchy', hierarchy], ['search', search]] as const) {
        if (!leg || Math.abs(leg.cost - expected) > 1e-6) mismatches.push(`${i}: ${name} ${leg?.cost}, oracle ${expected}`);
        else if (net.forbiddenTurn(leg, m)) mismatches.push(`${i}: ${name} path breaks a restriction`);
      }
    }
    expect(mismatches).toEqual([]);
    expect(routed).toBeGreaterThan(100);
    // The restrictions change some answers, or the test proves nothing.
    expect(bitten).toBeGreaterThan(3);
  });
});

describe('TurnSequences', () => {
  it('matches overlapping sequences wherever they start (failure links)', () => {
    // [1,2,3] and [2,3,4]: after 1,2,3 is refused, 5,2,3 then 4 is refused through the second sequence.
    const automaton = TurnSequences.of(Int32Array.from([0, 3, 6]), Int32Array.from([1, 2, 3, 2, 3, 4]), Uint8Array.from([1, 1]), 0)!;
    expect(automaton.violatedBy([1, 2, 3])).toBe(true);
    expect(automaton.violatedBy([1, 2, 5, 3])).toBe(false);
    expect(automaton.violatedBy([1, 2, 3, 4].slice(1))).toBe(true);
    expect(automaton.violatedBy([5, 1, 2, 4, 2, 3, 5])).toBe(false);
    expect(automaton.violatedBy([1, 1, 2, 3])).toBe(true);
    expect(automaton.violatedBy([7, 2, 3, 4])).toBe(true);
    expect(TurnSequences.of(Int32Array.from([0, 3, 6]), Int32Array.from([1, 2, 3, 2, 3, 4]), Uint8Array.from([1, 1]), 1)).toBeNull();
  });
});
