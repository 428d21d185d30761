import { MinHeap } from './heap.js';
import { NO_ACCESS, type RoadGraph } from './road-graph.js';

/**
 * Searches on the road graph itself (no hierarchy): the oracle the tests hold
 * the hierarchy to (plain node-based Dijkstra), and the edge-based A* the
 * engine falls back to when a turn restriction or a per-query weight change
 * applies (traffic factors, blocked edges, alternative-route penalties): the
 * hierarchy's shortcuts bake in static weights, so such a query cannot use
 * them (docs/adr/0018).
 */

/** Where a search starts or ends: the far end of a directed edge piece, with what that piece costs. */
export interface EdgeSeed {
  edge: number;
  /** 0: along the edge (towards edgeTo), 1: against it. */
  dir: number;
  /** Source seeds: cost from the start point to the edge's head. Target seeds: cost from the edge's tail to the end point. */
  cost: number;
}

export interface EdgePath {
  cost: number;
  /** Directed edges travelled, first (the start's own edge) to last (the end's own edge). */
  edges: number[];
  dirs: number[];
}

export interface EdgeSearchOptions {
  weights: Int32Array;
  /** Turn restrictions of this mode apply (MODES index); -1: none. */
  modeIndex: number;
  /** Multiplier of an edge's weight in a direction, ≥ 1 (or Infinity: blocked); absent: static weights. */
  factor?: (edge: number, dir: number) => number;
  /** Lower bound of the remaining cost from a node (admissible, consistent); absent: plain Dijkstra. */
  heuristic?: (node: number) => number;
}

export class EdgeSearch {
  private readonly dist: Float64Array;
  private readonly parent: Int32Array;
  private readonly stamps: Int32Array;
  private stamp = 0;
  private readonly heap = new MinHeap(4096);
  settled = 0;

  constructor(private readonly graph: RoadGraph) {
    // A label per directed edge, and one per state of a via-way restriction in progress (TurnSequences) beyond the root.
    let extra = 0;
    for (let m = 0; m < graph.weights.length; m++) extra = Math.max(extra, (graph.sequencesOf(m)?.size ?? 1) - 1);
    const states = 2 * graph.edgeCount + extra;
    this.dist = new Float64Array(states);
    this.parent = new Int32Array(states);
    this.stamps = new Int32Array(states);
  }

  route(sources: EdgeSeed[], targets: EdgeSeed[], options: EdgeSearchOptions): EdgePath | null {
    const graph = this.graph;
    const { dist, parent, stamps, heap } = this;
    const stamp = ++this.stamp;
    const { weights, factor, heuristic, modeIndex } = options;
    const restricted = modeIndex >= 0 && graph.hasTurnRestrictions;
    // Via-way restrictions: a label is (directed edge, restriction in progress); labels at the root are the plain 2e+dir.
    const sequences = graph.sequencesOf(modeIndex);
    const base = 2 * graph.edgeCount;
    const symbol = sequences?.symbol;
    heap.clear();
    const h = heuristic ?? (() => 0);
    for (const seed of sources) {
      const at = sequences ? sequences.step(0, 2 * seed.edge + seed.dir) : 0;
      if (at < 0) continue;
      const state = at === 0 ? 2 * seed.edge + seed.dir : base + at - 1;
      const f = factor ? factor(seed.edge, seed.dir) : 1;
      if (f === Infinity) continue;
      const cost = seed.cost * f;
      if (stamps[state] !== stamp || cost < dist[state]) {
        stamps[state] = stamp;
        dist[state] = cost;
        parent[state] = -1;
        heap.push(cost + h(graph.head(seed.edge, seed.dir)), state);
      }
    }
    // Targets by the node they are entered from.
    const byTail = new Map<number, EdgeSeed[]>();
    for (const seed of targets) {
      const tail = graph.tail(seed.edge, seed.dir);
      byTail.set(tail, [...(byTail.get(tail) ?? []), seed]);
    }
    let best = Infinity;
    let bestState = -1;
    let bestTarget: EdgeSeed | null = null;
    let settled = 0;
    while (heap.size > 0) {
      const key = heap.topKey;
      const state = heap.topValue;
      heap.pop();
      if (key >= best) break;
      const at = state < base ? 0 : state - base + 1;
      const directed = at === 0 ? state : symbol![at];
      const edge = directed >> 1;
      const dir = directed & 1;
      const node = graph.head(edge, dir);
      const d = dist[state];
      if (key > d + h(node) + 1e-9) continue;
      settled++;
      const ending = byTail.get(node);
      if (ending) {
        for (const target of ending) {
          if (target.edge === edge && target.dir !== dir) continue;
          if (restricted && graph.turnForbidden(edge, node, target.edge, modeIndex)) continue;
          if (sequences && sequences.step(at, 2 * target.edge + target.dir) < 0) continue;
          const f = factor ? factor(target.edge, target.dir) : 1;
          const total = d + target.cost * f;
          if (total < best) {
            best = total;
            bestState = state;
            bestTarget = target;
          }
        }
      }
      for (let k = graph.incidentOffset[node], end = graph.incidentOffset[node + 1]; k < end; k++) {
        const next = graph.incidentEdges[k];
        const nextDir = graph.edgeFrom[next] === node ? 0 : 1;
        // A loop-free network has no edge with both ends here; a U-turn back along the same edge is never shorter.
        if (next === edge) continue;
        let w = weights[2 * next + nextDir];
        if (w === NO_ACCESS) continue;
        if (factor) {
          const f = factor(next, nextDir);
          if (f === Infinity) continue;
          w *= f;
        }
        if (restricted && graph.turnForbidden(edge, node, next, modeIndex)) continue;
        let nextState = 2 * next + nextDir;
        if (sequences) {
          const nextAt = sequences.step(at, nextState);
          if (nextAt < 0) continue;
          if (nextAt > 0) nextState = base + nextAt - 1;
        }
        const nd = d + w;
        if (stamps[nextState] !== stamp || nd < dist[nextState]) {
          stamps[nextState] = stamp;
          dist[nextState] = nd;
          parent[nextState] = state;
          heap.push(nd + h(graph.head(next, nextDir)), nextState);
        }
      }
    }
    this.settled = settled;
    if (bestState < 0 || !bestTarget) return null;
    const edges: number[] = [bestTarget.edge];
    const dirs: number[] = [bestTarget.dir];
    for (let state = bestState; state !== -1; state = parent[state]) {
      const directed = state < base ? state : symbol![state - base + 1];
      edges.push(directed >> 1);
      dirs.push(directed & 1);
    }
    edges.reverse();
    dirs.reverse();
    return { cost: best, edges, dirs };
  }
}

/** Plain node-based Dijkstra from seeds to seeds: the tests' oracle for the hierarchy (no restrictions, static weights). */
export function dijkstraCost(graph: RoadGraph, weights: Int32Array, sources: Array<{ node: number; cost: number }>, targets: Array<{ node: number; cost: number }>): number {
  const dist = new Float64Array(graph.nodeCount).fill(Infinity);
  const heap = new MinHeap(1024);
  for (const seed of sources) {
    if (seed.cost < dist[seed.node]) {
      dist[seed.node] = seed.cost;
      heap.push(seed.cost, seed.node);
    }
  }
  const targetCost = new Map<number, number>();
  for (const seed of targets) targetCost.set(seed.node, Math.min(targetCost.get(seed.node) ?? Infinity, seed.cost));
  let best = Infinity;
  while (heap.size > 0) {
    const d = heap.topKey;
    const u = heap.topValue;
    heap.pop();
    if (d >= best) break;
    if (d > dist[u]) continue;
    const end = targetCost.get(u);
    if (end !== undefined && d + end < best) best = d + end;
    for (let k = graph.incidentOffset[u]; k < graph.incidentOffset[u + 1]; k++) {
      const edge = graph.incidentEdges[k];
      const dir = graph.edgeFrom[edge] === u ? 0 : 1;
      const w = weights[2 * edge + dir];
      if (w === NO_ACCESS) continue;
      const x = graph.head(edge, dir);
      if (x === u) continue;
      if (d + w < dist[x]) {
        dist[x] = d + w;
        heap.push(d + w, x);
      }
    }
  }
  return best;
}

/** Costs from `source` to every node (forward) or from every node to it (reverse), node-based. */
export function singleSourceCosts(graph: RoadGraph, weights: Int32Array, source: number, reverse: boolean): Float64Array {
  const dist = new Float64Array(graph.nodeCount).fill(Infinity);
  const heap = new MinHeap(1024);
  dist[source] = 0;
  heap.push(0, source);
  while (heap.size > 0) {
    const d = heap.topKey;
    const u = heap.topValue;
    heap.pop();
    if (d > dist[u]) continue;
    for (let k = graph.incidentOffset[u]; k < graph.incidentOffset[u + 1]; k++) {
      const edge = graph.incidentEdges[k];
      const dir = graph.edgeFrom[edge] === u ? 0 : 1;
      // Reverse: arrive at u along the edge travelled towards u.
      const w = weights[2 * edge + (reverse ? 1 - dir : dir)];
      if (w === NO_ACCESS) continue;
      const x = graph.head(edge, dir);
      if (d + w < dist[x]) {
        dist[x] = d + w;
        heap.push(d + w, x);
      }
    }
  }
  return dist;
}

/**
 * ALT (A*, landmarks, triangle inequality; Goldberg & Harrelson 2005): costs
 * from and to a few far-apart nodes give, for any node v and target t, the
 * lower bound max(d(L,t) − d(L,v), d(v,L) − d(t,L)). Computed on static
 * weights, it stays a lower bound when a query only raises weights (traffic
 * factors ≥ 1, blocked edges, penalties), which is what issue #16 needs.
 */
export interface LandmarkData {
  nodes: Int32Array;
  fromLandmark: Float32Array;
  toLandmark: Float32Array;
}

export class Landmarks implements LandmarkData {
  constructor(
    readonly nodes: Int32Array,
    /** [l * n + v]: cost from landmark l to v, and from v to landmark l (Infinity: unreachable). */
    readonly fromLandmark: Float32Array,
    readonly toLandmark: Float32Array,
    private readonly nodeCount: number,
  ) {}

  static of(data: LandmarkData, nodeCount: number): Landmarks {
    return new Landmarks(data.nodes, data.fromLandmark, data.toLandmark, nodeCount);
  }

  static select(graph: RoadGraph, weights: Int32Array, count: number): Landmarks {
    const n = graph.nodeCount;
    const nodes: number[] = [];
    const fromLandmark = new Float32Array(count * n);
    const toLandmark = new Float32Array(count * n);
    // Farthest selection: each new landmark is the node farthest (by the sum so far) from those chosen.
    const spread = new Float64Array(n);
    // Start inside the routable network (islands are closed: an edge open for the mode is in a large component).
    let next = 0;
    for (let e = 0; e < graph.edgeCount; e++) {
      if (weights[2 * e] !== NO_ACCESS || weights[2 * e + 1] !== NO_ACCESS) {
        next = graph.edgeFrom[e];
        break;
      }
    }
    for (let l = 0; l < count && n > 0; l++) {
      nodes.push(next);
      const from = singleSourceCosts(graph, weights, next, false);
      const to = singleSourceCosts(graph, weights, next, true);
      fromLandmark.set(from, l * n);
      toLandmark.set(to, l * n);
      let far = -1;
      for (let v = 0; v < n; v++) {
        if (!Number.isFinite(from[v])) continue;
        spread[v] += from[v];
        if (nodes.includes(v)) continue;
        if (far < 0 || spread[v] > spread[far]) far = v;
      }
      if (far < 0) break;
      next = far;
    }
    return new Landmarks(Int32Array.from(nodes), fromLandmark.subarray(0, nodes.length * n), toLandmark.subarray(0, nodes.length * n), n);
  }

  bound(v: number, t: number): number {
    const n = this.nodeCount;
    let best = 0;
    for (let l = 0, base = 0; l < this.nodes.length; l++, base += n) {
      const a = this.fromLandmark[base + t] - this.fromLandmark[base + v];
      const b = this.toLandmark[base + v] - this.toLandmark[base + t];
      if (a > best && Number.isFinite(a)) best = a;
      if (b > best && Number.isFinite(b)) best = b;
    }
    // Float32 tables round: a hair below the bound keeps it admissible.
    return best * 0.999;
  }
}
