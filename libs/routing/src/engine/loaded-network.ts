import { MODES, type Mode } from '../domain/profiles.js';
import { HierarchyQuery, type Seed } from './contraction.js';
import type { PreparedGraph } from './graph-file.js';
import { NO_ACCESS, WEIGHT_UNITS_PER_SECOND, type RoadGraph } from './road-graph.js';
import { EdgeSearch, Landmarks, type EdgeSeed } from './search.js';
import { SpatialIndex, type Snap } from './spatial-index.js';
import { closedEdges, TrafficMetrics, type Metric } from './traffic-metrics.js';

/** interface: a point farther than this from any road the mode may use is 422 NO_ROAD_NEARBY (issue #15). */
export const SNAP_RADIUS_M = 1000;

/** A leg as road edges: the start's own edge (partly), whole edges, the end's own edge (partly). */
export interface EdgeLeg {
  /** Cost in weight units (tenths of a second) under the weights used. */
  cost: number;
  from: Snap;
  to: Snap;
  edges: number[];
  dirs: number[];
}

export type EdgeFactor = (edge: number, dir: number) => number;

/**
 * A prepared graph ready to answer: the spatial index for snapping, a
 * hierarchy query per mode, the edge-based search for restricted or
 * re-weighted queries, ALT landmarks per mode (computed at preparation).
 */
export class LoadedNetwork {
  readonly index: SpatialIndex;
  private readonly queries: HierarchyQuery[];
  private readonly search: EdgeSearch;
  private readonly landmarks: Landmarks[];
  /** Hierarchies customised for traffic hours and closed roads (docs/adr/0025). */
  readonly metrics: TrafficMetrics;
  private readonly closures = new Map<string, { key: string; edges: Set<number> }>();
  private closureSets = 0;
  private readonly closuresByList = new WeakMap<object, { key: string; edges: Set<number> }>();

  constructor(
    readonly prepared: PreparedGraph,
    readonly datasetVersion: string,
  ) {
    this.index = new SpatialIndex(prepared.graph, prepared.index);
    this.queries = prepared.hierarchies.map((ch) => new HierarchyQuery(ch));
    this.search = new EdgeSearch(prepared.graph);
    this.landmarks = prepared.landmarks.map((data) => Landmarks.of(data, prepared.graph.nodeCount));
    this.metrics = new TrafficMetrics(prepared.graph);
    this.metrics.prepareInBackground();
  }

  /**
   * Edges closed by a set of circles, kept per set (the live incidents change
   * far less often than routes are asked), with a short key naming the set.
   */
  closedBy(areas: ReadonlyArray<{ lat: number; lng: number; radius_m: number }>): { key: string; edges: Set<number> } {
    // The planner hands the same array while the incidents stay the same: nothing to compare.
    const known = this.closuresByList.get(areas);
    if (known) return known;
    const signature = areas.map((area) => `${area.lat},${area.lng},${area.radius_m}`).join(';');
    let closed = this.closures.get(signature);
    if (!closed) {
      closed = { key: `closed-${++this.closureSets}`, edges: closedEdges(this.graph, areas) };
      this.closures.set(signature, closed);
      while (this.closures.size > 8) this.closures.delete(this.closures.keys().next().value!);
    }
    this.closuresByList.set(areas, closed);
    return closed;
  }

  get graph(): RoadGraph {
    return this.prepared.graph;
  }

  snap(lat: number, lng: number, mode: Mode, radiusM = SNAP_RADIUS_M): Snap | null {
    return this.index.nearest(lat, lng, radiusM, this.graph.weightsOf(mode));
  }

  landmarksOf(modeIndex: number): Landmarks {
    return this.landmarks[modeIndex];
  }

  /**
   * The cheapest leg between two snapped points: a hierarchy (the static one,
   * or `metric`, customised for the query's weights); the edge-based search
   * when `factor` changes weights no metric covers, or when the hierarchy's
   * path makes a forbidden turn or travels a forbidden via-way sequence (its
   * shortcuts cannot see either). The check is exact: the hierarchy's path is
   * the cheapest of all, so when it is legal it is also the cheapest legal one.
   */
  leg(from: Snap, to: Snap, mode: Mode, factor?: EdgeFactor, metric?: Metric): EdgeLeg | null {
    const modeIndex = MODES.indexOf(mode);
    const graph = this.graph;
    const weights = graph.weights[modeIndex];
    if (!factor || metric) {
      const hierarchyWeights = metric?.weights ?? weights;
      const sourceSeeds = this.sourceSeeds(from, hierarchyWeights);
      const targetSeeds = this.targetSeeds(to, hierarchyWeights);
      const direct = this.direct(from, to, hierarchyWeights);
      const path = (metric?.query ?? this.queries[modeIndex]).route(
        sourceSeeds.map((seed): Seed => ({ node: graph.head(seed.edge, seed.dir), cost: seed.cost })),
        targetSeeds.map((seed): Seed => ({ node: graph.tail(seed.edge, seed.dir), cost: seed.cost })),
      );
      if (direct && (!path || direct.cost <= path.cost)) return direct;
      if (!path) return null;
      const first = sourceSeeds.find((seed) => graph.head(seed.edge, seed.dir) === path.sourceNode)!;
      const last = targetSeeds.find((seed) => graph.tail(seed.edge, seed.dir) === path.targetNode)!;
      const leg: EdgeLeg = { cost: path.cost, from, to, edges: [first.edge, ...path.edges, last.edge], dirs: [first.dir, ...path.dirs, last.dir] };
      if (!this.forbiddenTurn(leg, modeIndex)) return leg;
    }
    const sourceSeeds = this.sourceSeeds(from, weights);
    const targetSeeds = this.targetSeeds(to, weights);
    const direct = this.direct(from, to, weights, factor);
    const heuristic = this.heuristicTo(targetSeeds, modeIndex);
    const path = this.search.route(sourceSeeds, targetSeeds, { weights, modeIndex, factor, heuristic });
    if (direct && (!path || direct.cost <= path.cost)) return direct;
    return path ? { cost: path.cost, from, to, edges: path.edges, dirs: path.dirs } : null;
  }

  /** Static cost of a leg's edges (alternatives are found under penalties, then judged at their real cost). */
  staticCost(leg: EdgeLeg, mode: Mode): number {
    const weights = this.graph.weightsOf(mode);
    let cost = 0;
    for (let k = 0; k < leg.edges.length; k++) cost += weights[2 * leg.edges[k] + leg.dirs[k]] * this.fraction(leg, k);
    return cost;
  }

  /** Share of edge k of a leg that is travelled (partial first and last edges). */
  fraction(leg: EdgeLeg, k: number): number {
    const edge = leg.edges[k];
    const length = this.index.edgeLengthM(edge) || 1;
    const last = leg.edges.length - 1;
    if (last === 0) return Math.abs(leg.to.offsetM - leg.from.offsetM) / length;
    if (k === 0) return leg.dirs[0] === 0 ? 1 - leg.from.offsetM / length : leg.from.offsetM / length;
    if (k === last) return leg.dirs[last] === 0 ? leg.to.offsetM / length : 1 - leg.to.offsetM / length;
    return 1;
  }

  sourceSeeds(snap: Snap, weights: Int32Array): EdgeSeed[] {
    const length = this.index.edgeLengthM(snap.edge) || 1;
    const along = snap.offsetM / length;
    const seeds: EdgeSeed[] = [];
    if (weights[2 * snap.edge] !== NO_ACCESS) seeds.push({ edge: snap.edge, dir: 0, cost: weights[2 * snap.edge] * (1 - along) });
    if (weights[2 * snap.edge + 1] !== NO_ACCESS) seeds.push({ edge: snap.edge, dir: 1, cost: weights[2 * snap.edge + 1] * along });
    return seeds;
  }

  targetSeeds(snap: Snap, weights: Int32Array): EdgeSeed[] {
    const length = this.index.edgeLengthM(snap.edge) || 1;
    const along = snap.offsetM / length;
    const seeds: EdgeSeed[] = [];
    if (weights[2 * snap.edge] !== NO_ACCESS) seeds.push({ edge: snap.edge, dir: 0, cost: weights[2 * snap.edge] * along });
    if (weights[2 * snap.edge + 1] !== NO_ACCESS) seeds.push({ edge: snap.edge, dir: 1, cost: weights[2 * snap.edge + 1] * (1 - along) });
    return seeds;
  }

  /** Both points on one edge, the end ahead in an open direction: along the edge, no junction. */
  private direct(from: Snap, to: Snap, weights: Int32Array, factor?: EdgeFactor): EdgeLeg | null {
    if (from.edge !== to.edge) return null;
    const dir = to.offsetM >= from.offsetM ? 0 : 1;
    const w = weights[2 * from.edge + dir];
    if (w === NO_ACCESS) return null;
    const f = factor ? factor(from.edge, dir) : 1;
    if (f === Infinity) return null;
    const length = this.index.edgeLengthM(from.edge) || 1;
    return { cost: (w * f * Math.abs(to.offsetM - from.offsetM)) / length, from, to, edges: [from.edge], dirs: [dir] };
  }

  /** Whether a leg makes a forbidden turn (via node) or travels a forbidden sequence of edges (via way). */
  forbiddenTurn(leg: EdgeLeg, modeIndex: number): boolean {
    const graph = this.graph;
    if (graph.hasTurnRestrictions) {
      for (let k = 1; k < leg.edges.length; k++) {
        const via = graph.head(leg.edges[k - 1], leg.dirs[k - 1]);
        if (graph.turnForbidden(leg.edges[k - 1], via, leg.edges[k], modeIndex)) return true;
      }
    }
    const sequences = graph.sequencesOf(modeIndex);
    return sequences !== null && sequences.violatedBy(leg.edges.map((edge, k) => 2 * edge + leg.dirs[k]));
  }

  private heuristicTo(targets: EdgeSeed[], modeIndex: number): (node: number) => number {
    const landmarks = this.landmarksOf(modeIndex);
    const graph = this.graph;
    return (node) => {
      let best = Infinity;
      for (const target of targets) best = Math.min(best, landmarks.bound(node, graph.tail(target.edge, target.dir)) + target.cost);
      return best;
    };
  }

  static seconds(cost: number): number {
    return cost / WEIGHT_UNITS_PER_SECOND;
  }
}
