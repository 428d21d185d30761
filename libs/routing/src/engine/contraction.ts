import { MinHeap } from './heap.js';

/**
 * A directed graph as contraction reads it: arcs `from → to` with integer
 * weights; `edge`/`dir` say which road edge (and which way along it) an
 * original arc is, so a path can be unpacked back to road edges.
 */
export interface ArcList {
  nodeCount: number;
  from: Int32Array;
  to: Int32Array;
  weight: Int32Array;
  edge: Int32Array;
  dir: Uint8Array;
}

/**
 * A contraction hierarchy (Geisberger et al. 2008, as OSRM and GraphHopper
 * build them for static weights): nodes contracted in order of importance,
 * shortcuts added where a node's removal would lengthen a shortest path. A
 * query searches only upwards from both ends and meets at the top.
 *
 * Arc arrays (original arcs and shortcuts): `arcEdge` ≥ 0 for an original arc
 * (with `arcDir`), −1 for a shortcut, which unpacks into `arcChildA` then
 * `arcChildB`. Search graphs in CSR form: `up*` holds, per node, arcs to
 * higher nodes (forward search); `down*` holds, per node, the arcs coming
 * into it from higher nodes, reversed (backward search).
 */
export interface ContractionHierarchy {
  nodeCount: number;
  rank: Int32Array;
  arcEdge: Int32Array;
  arcDir: Uint8Array;
  arcChildA: Int32Array;
  arcChildB: Int32Array;
  upOffset: Int32Array;
  upHead: Int32Array;
  upWeight: Int32Array;
  upArc: Int32Array;
  downOffset: Int32Array;
  downHead: Int32Array;
  downWeight: Int32Array;
  downArc: Int32Array;
}

export interface ContractionOptions {
  /** Nodes a witness search settles before it gives up (more: fewer shortcuts, slower preparation). */
  witnessSettleLimit?: number;
  onProgress?: (contracted: number, total: number) => void;
}

class GrowableInt32 {
  data: Int32Array;
  length = 0;
  constructor(capacity: number) {
    this.data = new Int32Array(Math.max(16, capacity));
  }
  push(value: number): number {
    if (this.length === this.data.length) {
      const next = new Int32Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    this.data[this.length] = value;
    return this.length++;
  }
  view(): Int32Array {
    return this.data.slice(0, this.length);
  }
}

export function contract(graph: ArcList, options: ContractionOptions = {}): ContractionHierarchy {
  const n = graph.nodeCount;
  const settleLimit = options.witnessSettleLimit ?? 60;
  const arcFrom = new GrowableInt32(graph.from.length * 2);
  const arcTo = new GrowableInt32(graph.from.length * 2);
  const arcWeight = new GrowableInt32(graph.from.length * 2);
  const arcEdge = new GrowableInt32(graph.from.length * 2);
  const arcDir = new GrowableInt32(graph.from.length * 2);
  const childA = new GrowableInt32(graph.from.length * 2);
  const childB = new GrowableInt32(graph.from.length * 2);
  const outArcs: number[][] = new Array(n);
  const inArcs: number[][] = new Array(n);
  for (let v = 0; v < n; v++) {
    outArcs[v] = [];
    inArcs[v] = [];
  }
  const addArc = (from: number, to: number, weight: number, edge: number, dir: number, a: number, b: number) => {
    const id = arcFrom.push(from);
    arcTo.push(to);
    arcWeight.push(weight);
    arcEdge.push(edge);
    arcDir.push(dir);
    childA.push(a);
    childB.push(b);
    outArcs[from].push(id);
    inArcs[to].push(id);
    return id;
  };
  for (let i = 0; i < graph.from.length; i++) {
    if (graph.from[i] === graph.to[i]) continue;
    addArc(graph.from[i], graph.to[i], graph.weight[i], graph.edge[i], graph.dir[i], -1, -1);
  }

  const contracted = new Uint8Array(n);
  const rank = new Int32Array(n).fill(-1);
  const deletedNeighbours = new Int32Array(n);
  // Witness search workspace.
  const dist = new Float64Array(n).fill(Infinity);
  const touched: number[] = [];
  const heap = new MinHeap(256);
  const witness = (source: number, avoid: number, limit: number): void => {
    for (const v of touched) dist[v] = Infinity;
    touched.length = 0;
    heap.clear();
    dist[source] = 0;
    touched.push(source);
    heap.push(0, source);
    let settled = 0;
    while (heap.size > 0) {
      const d = heap.topKey;
      const u = heap.topValue;
      heap.pop();
      if (d > dist[u]) continue;
      if (d > limit || ++settled > settleLimit) break;
      const arcs = outArcs[u];
      for (let k = 0; k < arcs.length; k++) {
        const arc = arcs[k];
        const x = arcTo.data[arc];
        if (x === avoid || contracted[x]) continue;
        const nd = d + arcWeight.data[arc];
        if (nd < dist[x]) {
          if (dist[x] === Infinity) touched.push(x);
          dist[x] = nd;
          heap.push(nd, x);
        }
      }
    }
  };

  /** The shortcuts contracting `v` needs now: [from, to, weight, arcIn, arcOut] flattened. */
  const shortcutsFor = (v: number, out: number[]): void => {
    out.length = 0;
    const ins = inArcs[v];
    const outs = outArcs[v];
    let maxOut = 0;
    for (const arc of outs) if (!contracted[arcTo.data[arc]] && arcWeight.data[arc] > maxOut) maxOut = arcWeight.data[arc];
    for (const inArc of ins) {
      const u = arcFrom.data[inArc];
      if (contracted[u]) continue;
      const wIn = arcWeight.data[inArc];
      witness(u, v, wIn + maxOut);
      for (const outArc of outs) {
        const x = arcTo.data[outArc];
        if (x === u || contracted[x]) continue;
        const through = wIn + arcWeight.data[outArc];
        if (dist[x] <= through) continue;
        // Among parallel in/out arcs only the cheapest pair needs a shortcut: keep the best per (u, x).
        let replaced = false;
        for (let s = 0; s < out.length; s += 5) {
          if (out[s] === u && out[s + 1] === x) {
            if (through < out[s + 2]) {
              out[s + 2] = through;
              out[s + 3] = inArc;
              out[s + 4] = outArc;
            }
            replaced = true;
            break;
          }
        }
        if (!replaced) out.push(u, x, through, inArc, outArc);
      }
    }
  };

  const degree = (v: number) => {
    let d = 0;
    for (const arc of inArcs[v]) if (!contracted[arcFrom.data[arc]]) d++;
    for (const arc of outArcs[v]) if (!contracted[arcTo.data[arc]]) d++;
    return d;
  };
  const scratch: number[] = [];
  const priority = (v: number) => {
    shortcutsFor(v, scratch);
    return 2 * (scratch.length / 5) - degree(v) + deletedNeighbours[v];
  };

  const queue = new MinHeap(n);
  for (let v = 0; v < n; v++) queue.push(priority(v), v);
  let order = 0;
  const shortcuts: number[] = [];
  while (queue.size > 0) {
    const v = queue.topValue;
    queue.pop();
    if (contracted[v]) continue;
    // Lazy update: a node whose priority rose since it was queued goes back in.
    const current = priority(v);
    if (queue.size > 0 && current > queue.topKey) {
      queue.push(current, v);
      continue;
    }
    shortcutsFor(v, shortcuts);
    for (let s = 0; s < shortcuts.length; s += 5) addArc(shortcuts[s], shortcuts[s + 1], shortcuts[s + 2], -1, 0, shortcuts[s + 3], shortcuts[s + 4]);
    // Its live arcs now are its search arcs (every neighbour left is contracted later, so ranks higher);
    // the neighbours drop their arcs to it, so later contractions never walk dead arcs.
    const liveOut = outArcs[v].filter((arc) => !contracted[arcTo.data[arc]]);
    const liveIn = inArcs[v].filter((arc) => !contracted[arcFrom.data[arc]]);
    contracted[v] = 1;
    rank[v] = order++;
    outArcs[v] = liveOut;
    inArcs[v] = liveIn;
    for (const arc of liveIn) {
      const u = arcFrom.data[arc];
      deletedNeighbours[u]++;
      outArcs[u] = outArcs[u].filter((a) => arcTo.data[a] !== v);
    }
    for (const arc of liveOut) {
      const x = arcTo.data[arc];
      deletedNeighbours[x]++;
      inArcs[x] = inArcs[x].filter((a) => arcFrom.data[a] !== v);
    }
    if (options.onProgress && order % 10000 === 0) options.onProgress(order, n);
  }
  options.onProgress?.(n, n);

  // Search graphs: per node, the cheapest arc to each higher neighbour.
  const upCount = new Int32Array(n + 1);
  const downCount = new Int32Array(n + 1);
  const keep = new Uint8Array(arcFrom.length);
  const best = new Map<number, number>();
  for (let v = 0; v < n; v++) {
    best.clear();
    for (const arc of outArcs[v]) {
      const x = arcTo.data[arc];
      if (rank[x] <= rank[v]) continue;
      const seen = best.get(x);
      if (seen === undefined || arcWeight.data[arc] < arcWeight.data[seen]) best.set(x, arc);
    }
    for (const arc of best.values()) {
      keep[arc] = 1;
      upCount[v + 1]++;
    }
    best.clear();
    for (const arc of inArcs[v]) {
      const u = arcFrom.data[arc];
      if (rank[u] <= rank[v]) continue;
      const seen = best.get(u);
      if (seen === undefined || arcWeight.data[arc] < arcWeight.data[seen]) best.set(u, arc);
    }
    for (const arc of best.values()) {
      keep[arc] |= 2;
      downCount[v + 1]++;
    }
  }
  for (let v = 0; v < n; v++) {
    upCount[v + 1] += upCount[v];
    downCount[v + 1] += downCount[v];
  }
  const upHead = new Int32Array(upCount[n]);
  const upWeight = new Int32Array(upCount[n]);
  const upArc = new Int32Array(upCount[n]);
  const downHead = new Int32Array(downCount[n]);
  const downWeight = new Int32Array(downCount[n]);
  const downArc = new Int32Array(downCount[n]);
  const upFill = upCount.slice(0, n);
  const downFill = downCount.slice(0, n);
  for (let arc = 0; arc < arcFrom.length; arc++) {
    if (keep[arc] & 1) {
      const v = arcFrom.data[arc];
      const at = upFill[v]++;
      upHead[at] = arcTo.data[arc];
      upWeight[at] = arcWeight.data[arc];
      upArc[at] = arc;
    }
    if (keep[arc] & 2) {
      const v = arcTo.data[arc];
      const at = downFill[v]++;
      downHead[at] = arcFrom.data[arc];
      downWeight[at] = arcWeight.data[arc];
      downArc[at] = arc;
    }
  }
  return {
    nodeCount: n,
    rank,
    arcEdge: arcEdge.view(),
    arcDir: Uint8Array.from(arcDir.view()),
    arcChildA: childA.view(),
    arcChildB: childB.view(),
    upOffset: upCount,
    upHead,
    upWeight,
    upArc,
    downOffset: downCount,
    downHead,
    downWeight,
    downArc,
  };
}

/** A search's starting (or, backwards, ending) points: nodes with the cost already spent reaching them. */
export interface Seed {
  node: number;
  cost: number;
}

export interface HierarchyPath {
  cost: number;
  /** The seed node the path leaves from, and the one it arrives at. */
  sourceNode: number;
  targetNode: number;
  /** Original arcs in travel order: road edge and direction. */
  edges: number[];
  dirs: number[];
}

/**
 * Bidirectional upward Dijkstra over a hierarchy. Not thread-safe, which in
 * a JS process means: one query at a time per instance (queries are
 * synchronous, so that holds).
 */
export class HierarchyQuery {
  private readonly distF: Float64Array;
  private readonly distB: Float64Array;
  private readonly parentF: Int32Array;
  private readonly parentB: Int32Array;
  private readonly stampF: Int32Array;
  private readonly stampB: Int32Array;
  private stamp = 0;
  private readonly heapF = new MinHeap(1024);
  private readonly heapB = new MinHeap(1024);
  /** Nodes settled by the last query (both directions): the figure the ADR compares. */
  settled = 0;

  constructor(private readonly ch: ContractionHierarchy) {
    const n = ch.nodeCount;
    this.distF = new Float64Array(n);
    this.distB = new Float64Array(n);
    this.parentF = new Int32Array(n);
    this.parentB = new Int32Array(n);
    this.stampF = new Int32Array(n);
    this.stampB = new Int32Array(n);
  }

  route(sources: Seed[], targets: Seed[]): HierarchyPath | null {
    const ch = this.ch;
    const stamp = ++this.stamp;
    const { distF, distB, parentF, parentB, stampF, stampB, heapF, heapB } = this;
    heapF.clear();
    heapB.clear();
    for (const seed of sources) {
      if (stampF[seed.node] !== stamp || seed.cost < distF[seed.node]) {
        stampF[seed.node] = stamp;
        distF[seed.node] = seed.cost;
        parentF[seed.node] = -1;
        heapF.push(seed.cost, seed.node);
      }
    }
    for (const seed of targets) {
      if (stampB[seed.node] !== stamp || seed.cost < distB[seed.node]) {
        stampB[seed.node] = stamp;
        distB[seed.node] = seed.cost;
        parentB[seed.node] = -1;
        heapB.push(seed.cost, seed.node);
      }
    }
    let best = Infinity;
    let meet = -1;
    let settled = 0;
    while (heapF.size > 0 || heapB.size > 0) {
      const forward = heapF.topKey <= heapB.topKey;
      const heap = forward ? heapF : heapB;
      if (heap.topKey >= best) {
        if ((forward ? heapB : heapF).topKey >= best) break;
        heap.clear();
        continue;
      }
      const d = heap.topKey;
      const u = heap.topValue;
      heap.pop();
      const dist = forward ? distF : distB;
      if (d > dist[u]) continue;
      settled++;
      const otherStamp = forward ? stampB : stampF;
      if (otherStamp[u] === stamp) {
        const total = d + (forward ? distB[u] : distF[u]);
        if (total < best) {
          best = total;
          meet = u;
        }
      }
      const stampArr = forward ? stampF : stampB;
      // Stall on demand: reached more cheaply through a higher node already seen (an arc down into u), u's
      // distance is not its shortest and nothing relaxed from it can be on a shortest path.
      const otherOffset = forward ? ch.downOffset : ch.upOffset;
      const otherHeads = forward ? ch.downHead : ch.upHead;
      const otherWeights = forward ? ch.downWeight : ch.upWeight;
      let stalled = false;
      for (let k = otherOffset[u], end = otherOffset[u + 1]; k < end; k++) {
        const x = otherHeads[k];
        if (stampArr[x] === stamp && dist[x] + otherWeights[k] < d) {
          stalled = true;
          break;
        }
      }
      if (stalled) continue;
      const offset = forward ? ch.upOffset : ch.downOffset;
      const heads = forward ? ch.upHead : ch.downHead;
      const weights = forward ? ch.upWeight : ch.downWeight;
      const arcs = forward ? ch.upArc : ch.downArc;
      const parent = forward ? parentF : parentB;
      for (let k = offset[u], end = offset[u + 1]; k < end; k++) {
        const x = heads[k];
        const nd = d + weights[k];
        if (stampArr[x] !== stamp || nd < dist[x]) {
          stampArr[x] = stamp;
          dist[x] = nd;
          parent[x] = arcs[k];
          heap.push(nd, x);
        }
      }
    }
    this.settled = settled;
    if (meet < 0) return null;
    // Forward half: from the meeting node back to the source, then reversed.
    const upArcs: number[] = [];
    let node = meet;
    while (parentF[node] !== -1) {
      const arc = parentF[node];
      upArcs.push(arc);
      node = this.arcTail(arc);
    }
    const sourceNode = node;
    upArcs.reverse();
    const downArcs: number[] = [];
    node = meet;
    while (parentB[node] !== -1) {
      const arc = parentB[node];
      downArcs.push(arc);
      node = this.arcHead(arc);
    }
    const edges: number[] = [];
    const dirs: number[] = [];
    for (const arc of [...upArcs, ...downArcs]) this.unpack(arc, edges, dirs);
    return { cost: best, sourceNode, targetNode: node, edges, dirs };
  }

  private tails: Int32Array | null = null;
  private heads: Int32Array | null = null;

  /** Arc endpoints, recovered once from the search graphs (they are not stored twice on disk). */
  private ends(): void {
    const ch = this.ch;
    const tails = new Int32Array(ch.arcEdge.length).fill(-1);
    const heads = new Int32Array(ch.arcEdge.length).fill(-1);
    for (let v = 0; v < ch.nodeCount; v++) {
      for (let k = ch.upOffset[v]; k < ch.upOffset[v + 1]; k++) {
        tails[ch.upArc[k]] = v;
        heads[ch.upArc[k]] = ch.upHead[k];
      }
      for (let k = ch.downOffset[v]; k < ch.downOffset[v + 1]; k++) {
        tails[ch.downArc[k]] = ch.downHead[k];
        heads[ch.downArc[k]] = v;
      }
    }
    this.tails = tails;
    this.heads = heads;
  }

  private arcTail(arc: number): number {
    if (!this.tails) this.ends();
    return this.tails![arc];
  }

  private arcHead(arc: number): number {
    if (!this.heads) this.ends();
    return this.heads![arc];
  }

  private unpack(arc: number, edges: number[], dirs: number[]): void {
    const ch = this.ch;
    const stack = [arc];
    while (stack.length > 0) {
      const current = stack.pop()!;
      if (ch.arcEdge[current] >= 0) {
        edges.push(ch.arcEdge[current]);
        dirs.push(ch.arcDir[current]);
      } else {
        stack.push(ch.arcChildB[current], ch.arcChildA[current]);
      }
    }
  }
}
