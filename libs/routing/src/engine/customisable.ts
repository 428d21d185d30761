import { contract, type ContractionHierarchy } from './contraction.js';
import { NO_ACCESS } from './road-graph.js';

/** What the topology reads of a road graph (a `RoadGraph`, or its arrays sent to a worker thread). */
export interface TopologyInput {
  nodeCount: number;
  edgeCount: number;
  nodeLat: Float64Array;
  nodeLng: Float64Array;
  edgeFrom: Int32Array;
  edgeTo: Int32Array;
  incidentOffset: Int32Array;
  incidentEdges: Int32Array;
}

/**
 * Customisable contraction (CCH; Dibbelt, Strasser & Wagner 2014, as
 * RoutingKit and OSRM's MLD "customisation" split the work): a node order
 * and a shortcut *topology* that do not depend on weights, computed once per
 * road network; then, for any weights (a traffic hour, closed roads), a
 * customisation pass gives every shortcut the exact cost of its best lower
 * path in time linear in the number of triangles. The result has the shape
 * of a static hierarchy (contraction.ts), so the same bidirectional upward
 * query answers on it, and it is exact for the weights it was customised with
 * (no witness search: every shortcut a weight could need is in the topology).
 *
 * Topology: the road graph undirected (every edge open to any mode), nodes
 * ordered by nested dissection (geometric bisection, smallest separator of
 * four directions, separator ranked above both halves), then eliminated in
 * that order adding fill-in edges ("chordal supergraph"). Each CCH edge
 * {lower, upper} carries two directed arcs: `2k` lower → upper ("up") and
 * `2k+1` upper → lower ("down").
 */
export interface CchTopology {
  nodeCount: number;
  /** Position of each node in the elimination order (higher: more important). */
  rank: Int32Array;
  /** CSR by node: its CCH edges to higher-ranked neighbours, by rank ascending. */
  offset: Int32Array;
  head: Int32Array;
  /** Lower triangles as flat (edge {x,v}, edge {x,u}, edge {v,u}) triples, x lowest, in x's rank order. */
  triangles: Int32Array;
  /** Per road edge: its CCH edge (−1 for a loop), and whether its `from` node is the lower end. */
  roadEdge: Int32Array;
  roadFromIsLower: Uint8Array;
}

/** Weight of an arc no path may use (customised weights stay below it). */
export const INFINITE_WEIGHT = 0x3fffffff;

/** Parts at most this big are not split further. */
const DISSECTION_LEAF = 8;

class Growable {
  data: Int32Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Int32Array(Math.max(16, capacity));
  }
  push(a: number): void {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length++] = a;
  }
  view(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

/** Nested dissection order of the road graph's nodes: returns nodes lowest rank first. */
export function dissectionOrder(graph: TopologyInput): Int32Array {
  const n = graph.nodeCount;
  const order = new Growable(n);
  const label = new Int32Array(n).fill(-1);
  let tags = 0;
  const directions: Array<[number, number]> = [[1, 0], [0, 1], [1, 1], [1, -1]];
  const neighbours = (v: number, visit: (x: number) => void) => {
    for (let k = graph.incidentOffset[v]; k < graph.incidentOffset[v + 1]; k++) {
      const e = graph.incidentEdges[k];
      visit(graph.edgeFrom[e] === v ? graph.edgeTo[e] : graph.edgeFrom[e]);
    }
  };
  /** Splits a part: the separator and the two halves without it (null: a leaf, small enough to keep). */
  const split = (nodes: Int32Array): { separator: Int32Array; left: Int32Array; right: Int32Array } | null => {
    if (nodes.length <= DISSECTION_LEAF) return null;
    let best: { separator: number[]; left: number[]; right: number[] } | null = null;
    for (const [a, b] of directions) {
      const key = (v: number) => a * graph.nodeLat[v] + b * graph.nodeLng[v];
      const sorted = Array.from(nodes).sort((x, y) => key(x) - key(y) || x - y);
      const half = sorted.length >> 1;
      const tag = (tags += 2);
      for (let i = 0; i < sorted.length; i++) label[sorted[i]] = i < half ? tag : tag + 1;
      // The separator: the smaller boundary (nodes of one half with a neighbour in the other).
      const boundary: number[][] = [[], []];
      for (const v of sorted) {
        const side = label[v] - tag;
        let crosses = false;
        neighbours(v, (x) => {
          if (label[x] === tag + 1 - side) crosses = true;
        });
        if (crosses) boundary[side].push(v);
      }
      const cut = boundary[0].length <= boundary[1].length ? 0 : 1;
      if (best && best.separator.length <= boundary[cut].length) continue;
      const inSeparator = new Set(boundary[cut]);
      best = {
        separator: boundary[cut],
        left: sorted.slice(0, half).filter((v) => !inSeparator.has(v)),
        right: sorted.slice(half).filter((v) => !inSeparator.has(v)),
      };
    }
    return { separator: Int32Array.from(best!.separator), left: Int32Array.from(best!.left), right: Int32Array.from(best!.right) };
  };
  // Depth first without recursion: both halves get lower ranks than their separator.
  const work: Array<{ part: Int32Array } | { separator: Int32Array }> = [{ part: Int32Array.from({ length: n }, (_, i) => i) }];
  while (work.length > 0) {
    const item = work.pop()!;
    if ('separator' in item) {
      for (const v of item.separator) order.push(v);
      continue;
    }
    const parts = split(item.part);
    if (!parts) {
      for (const v of item.part) order.push(v);
      continue;
    }
    work.push({ separator: parts.separator }, { part: parts.right }, { part: parts.left });
  }
  return order.view();
}

/** Builds the CCH topology of a road graph (weights play no part). */
export function buildCchTopology(graph: TopologyInput, order: Int32Array = dissectionOrder(graph)): CchTopology {
  const n = graph.nodeCount;
  const rank = new Int32Array(n);
  for (let i = 0; i < n; i++) rank[order[i]] = i;
  const upper: number[][] = Array.from({ length: n }, () => []);
  for (let e = 0; e < graph.edgeCount; e++) {
    const a = graph.edgeFrom[e];
    const b = graph.edgeTo[e];
    if (a === b) continue;
    if (rank[a] < rank[b]) upper[a].push(b);
    else upper[b].push(a);
  }
  // Elimination in rank order: a node's higher neighbours become a clique; adding them to the lowest of
  // them is enough (the rest follows when that one is eliminated).
  for (let i = 0; i < n; i++) {
    const v = order[i];
    const list = [...new Set(upper[v])].sort((x, y) => rank[x] - rank[y]);
    upper[v] = list;
    if (list.length > 1) {
      const lowest = upper[list[0]];
      for (let k = 1; k < list.length; k++) lowest.push(list[k]);
    }
  }
  const offset = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) offset[v + 1] = offset[v] + upper[v].length;
  const head = new Int32Array(offset[n]);
  for (let v = 0; v < n; v++) head.set(upper[v], offset[v]);
  // Lower triangles, bottom node in rank order: customisation then finds both lower arcs final.
  const triangles = new Growable(offset[n] * 3);
  const position = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const x = order[i];
    for (let ka = offset[x]; ka < offset[x + 1]; ka++) {
      const v = head[ka];
      for (let j = offset[v]; j < offset[v + 1]; j++) position[head[j]] = j;
      for (let kb = ka + 1; kb < offset[x + 1]; kb++) {
        const top = position[head[kb]];
        if (top < 0) throw new Error('CCH topology is not chordal');
        triangles.push(ka);
        triangles.push(kb);
        triangles.push(top);
      }
      for (let j = offset[v]; j < offset[v + 1]; j++) position[head[j]] = -1;
    }
  }
  const roadEdge = new Int32Array(graph.edgeCount).fill(-1);
  const roadFromIsLower = new Uint8Array(graph.edgeCount);
  for (let e = 0; e < graph.edgeCount; e++) {
    const a = graph.edgeFrom[e];
    const b = graph.edgeTo[e];
    if (a === b) continue;
    const [lower, higher] = rank[a] < rank[b] ? [a, b] : [b, a];
    roadFromIsLower[e] = lower === a ? 1 : 0;
    for (let k = offset[lower]; k < offset[lower + 1]; k++) {
      if (head[k] === higher) {
        roadEdge[e] = k;
        break;
      }
    }
  }
  return { nodeCount: n, rank, offset, head, triangles: triangles.view(), roadEdge, roadFromIsLower };
}

/**
 * Customisation: the hierarchy for one set of weights (per road edge and
 * direction, `NO_ACCESS` for closed), ready for `HierarchyQuery`. Arc `2k` is
 * the up arc of CCH edge k, `2k+1` its down arc; an arc keeps the road edge
 * it is (when the original road is its best) or the two arcs of the lower
 * triangle that beat it. Arcs nothing can use are left out of the search graphs.
 */
export function customise(topology: CchTopology, weights: Int32Array): ContractionHierarchy {
  const { nodeCount: n, offset, head, triangles, roadEdge, roadFromIsLower } = topology;
  const m = head.length;
  const up = new Int32Array(m).fill(INFINITE_WEIGHT);
  const down = new Int32Array(m).fill(INFINITE_WEIGHT);
  const arcEdge = new Int32Array(2 * m).fill(-1);
  const arcDir = new Uint8Array(2 * m);
  const arcChildA = new Int32Array(2 * m).fill(-1);
  const arcChildB = new Int32Array(2 * m).fill(-1);
  // Respecting: each CCH edge takes its cheapest original road edge per direction (parallel roads included).
  for (let e = 0; e < roadEdge.length; e++) {
    const k = roadEdge[e];
    if (k < 0) continue;
    for (let dir = 0; dir < 2; dir++) {
      const w = weights[2 * e + dir];
      if (w === NO_ACCESS || w >= INFINITE_WEIGHT) continue;
      // Along the edge from its `from` node: upwards when `from` is the lower end.
      const upwards = (dir === 0) === (roadFromIsLower[e] === 1);
      const arc = upwards ? 2 * k : 2 * k + 1;
      const current = upwards ? up[k] : down[k];
      if (w < current) {
        if (upwards) up[k] = w;
        else down[k] = w;
        arcEdge[arc] = e;
        arcDir[arc] = dir;
      }
    }
  }
  // Basic customisation: relax every shortcut by its lower triangles, bottom first.
  for (let t = 0; t < triangles.length; t += 3) {
    const e1 = triangles[t];
    const e2 = triangles[t + 1];
    const e3 = triangles[t + 2];
    // v → x → u (v, u the ends of e3, v lower): down of {x,v} then up of {x,u}.
    const viaUp = down[e1] + up[e2];
    if (viaUp < up[e3]) {
      up[e3] = viaUp;
      arcEdge[2 * e3] = -1;
      arcChildA[2 * e3] = 2 * e1 + 1;
      arcChildB[2 * e3] = 2 * e2;
    }
    // u → x → v: down of {x,u} then up of {x,v}.
    const viaDown = down[e2] + up[e1];
    if (viaDown < down[e3]) {
      down[e3] = viaDown;
      arcEdge[2 * e3 + 1] = -1;
      arcChildA[2 * e3 + 1] = 2 * e2 + 1;
      arcChildB[2 * e3 + 1] = 2 * e1;
    }
  }
  // Search graphs without the arcs nothing reaches.
  const upOffset = new Int32Array(n + 1);
  const downOffset = new Int32Array(n + 1);
  for (let v = 0; v < n; v++) {
    let ups = 0;
    let downs = 0;
    for (let k = offset[v]; k < offset[v + 1]; k++) {
      if (up[k] < INFINITE_WEIGHT) ups++;
      if (down[k] < INFINITE_WEIGHT) downs++;
    }
    upOffset[v + 1] = upOffset[v] + ups;
    downOffset[v + 1] = downOffset[v] + downs;
  }
  const upHead = new Int32Array(upOffset[n]);
  const upWeight = new Int32Array(upOffset[n]);
  const upArc = new Int32Array(upOffset[n]);
  const downHead = new Int32Array(downOffset[n]);
  const downWeight = new Int32Array(downOffset[n]);
  const downArc = new Int32Array(downOffset[n]);
  for (let v = 0; v < n; v++) {
    let u = upOffset[v];
    let d = downOffset[v];
    for (let k = offset[v]; k < offset[v + 1]; k++) {
      if (up[k] < INFINITE_WEIGHT) {
        upHead[u] = head[k];
        upWeight[u] = up[k];
        upArc[u++] = 2 * k;
      }
      if (down[k] < INFINITE_WEIGHT) {
        downHead[d] = head[k];
        downWeight[d] = down[k];
        downArc[d++] = 2 * k + 1;
      }
    }
  }
  return { nodeCount: n, rank: topology.rank, arcEdge, arcDir, arcChildA, arcChildB, upOffset, upHead, upWeight, upArc, downOffset, downHead, downWeight, downArc };
}

/**
 * Networks at most this big (nodes) get each metric as a full contraction
 * (contraction.ts, witness search, node order from the metric's own weights)
 * instead of a customisation of the nested-dissection topology: its query
 * settles about half the nodes (the static hierarchy's figure) for a
 * preparation that is still short on a city (Accra, 2,972 nodes: tens of ms
 * in the worker, against ~10 ms of customisation) and grows with the network
 * faster than customisation does; above it, the CCH path (docs/adr/0025).
 */
export const FULL_CONTRACTION_MAX_NODES = 10_000;

/** Whether metrics of a network this big are contracted in full (else customised on the CCH topology). */
export function contractsInFull(nodeCount: number): boolean {
  return nodeCount <= FULL_CONTRACTION_MAX_NODES;
}

/**
 * One metric as a full contraction hierarchy: the road graph's arcs under
 * `weights` (per road edge and direction; `NO_ACCESS` or above
 * `INFINITE_WEIGHT`: closed, left out), contracted as the static ones are.
 * Exact for these weights (a shortcut is left out only when a witness path
 * is as cheap).
 */
export function contractMetric(graph: TopologyInput, weights: Int32Array): ContractionHierarchy {
  const count = graph.edgeCount * 2;
  const from = new Int32Array(count);
  const to = new Int32Array(count);
  const weight = new Int32Array(count);
  const edge = new Int32Array(count);
  const dir = new Uint8Array(count);
  let arcs = 0;
  for (let e = 0; e < graph.edgeCount; e++) {
    for (let d = 0; d < 2; d++) {
      const w = weights[2 * e + d];
      if (w === NO_ACCESS || w >= INFINITE_WEIGHT) continue;
      from[arcs] = d === 0 ? graph.edgeFrom[e] : graph.edgeTo[e];
      to[arcs] = d === 0 ? graph.edgeTo[e] : graph.edgeFrom[e];
      weight[arcs] = w;
      edge[arcs] = e;
      dir[arcs++] = d;
    }
  }
  return contract({ nodeCount: graph.nodeCount, from: from.slice(0, arcs), to: to.slice(0, arcs), weight: weight.slice(0, arcs), edge: edge.slice(0, arcs), dir: dir.slice(0, arcs) });
}
