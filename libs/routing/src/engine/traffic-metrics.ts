import { Worker } from 'node:worker_threads';
import { HierarchyQuery, type ContractionHierarchy } from './contraction.js';
import { buildCchTopology, contractMetric, contractsInFull, customise, INFINITE_WEIGHT, type CchTopology } from './customisable.js';
import { greatCircleM, projectOnSegment } from '../../../platform/src/geo/geodesy.js';
import { NO_ACCESS, type RoadGraph } from './road-graph.js';

/** A learned-factor change is folded into the hierarchy at most this often per key (docs/adr/0025). */
export const RECUSTOMISE_DEBOUNCE_MS = 2000;
/**
 * Largest network with traffic metrics (nodes); up to FULL_CONTRACTION_MAX_NODES
 * (customisable.ts) each metric is contracted in full, above it customised.
 * The geometric dissection order is good on a city (Accra: 2,972 nodes,
 * topology in ~0.1 s, customisation ~10 ms) but not on a country: on the 90,000-node synthetic grid it gives 2.7 M
 * shortcut edges, 75 s of topology and 3–5 s per customisation, so a larger
 * network keeps the edge-based A* for traffic until preparation builds a
 * better order (inertial flow) in a worker (docs/adr/0025).
 */
export const CUSTOMISABLE_MAX_NODES = 25_000;
/** Customised hierarchies kept (hour buckets × closure sets × modes in use), least recently used dropped. */
export const KEPT_METRICS = 8;

/** One customisation: the weights it was made from (seeds and direct legs read them) and its query. */
export interface Metric {
  weights: Int32Array;
  /** The multiplier each weight was made with (per road edge and direction; Infinity: closed). */
  factors: Float64Array;
  query: HierarchyQuery;
  version: number;
}

/**
 * Re-weighted hierarchies for the embedded engine (docs/adr/0025): metrics
 * kept under a key (mode, traffic hour, closed roads…), each a full
 * contraction of its weights on a small network, else customised on one CCH
 * topology per road network.
 *
 * In the service (compiled code) a worker thread builds the topology when the
 * network loads and keeps it; every customisation is then sent to it with the
 * weights, and its hierarchy comes back: nothing heavier than the per-edge
 * weights runs on the event loop. Until a key's first metric is back, its
 * routes take the edge-based A* (exact, slower); a key whose factors changed
 * (a newer `version`) keeps serving its current metric while a debounced
 * re-customisation builds the new one, which then replaces it in one
 * assignment: a query sees the old weights or the new, never a mix. Tests run
 * the TypeScript sources, which a worker cannot load: there everything runs
 * in process, at once.
 */
export class TrafficMetrics {
  private topology: CchTopology | null = null;
  private worker: Worker | null = null;
  /** The worker is building the topology: traffic routes take the edge-based A* meanwhile. */
  private building = false;
  private readonly metrics = new Map<string, Metric>();
  private readonly pending = new Map<string, { version: number; weights: () => Weighted }>();
  /** Customisations sent to the worker and not back yet, by request id. */
  private readonly inFlight = new Map<number, { key: string; version: number; weighted: Weighted; started: number }>();
  private readonly inFlightKeys = new Set<string>();
  private requests = 0;
  private idle: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;
  /** Customisations done, and how long the last one took: what the ADR reports. */
  customisations = 0;
  lastCustomiseMs = 0;
  topologyMs = 0;

  constructor(private readonly graph: RoadGraph) {}

  /** Whether this network is small enough to customise (else traffic routes take the edge-based A*). */
  get enabled(): boolean {
    return this.graph.nodeCount <= CUSTOMISABLE_MAX_NODES;
  }

  /** Starts the worker thread, which builds the topology (none on a network contracted in full) and then makes each metric. */
  prepareInBackground(): void {
    const self = import.meta.url;
    if (!this.enabled || this.topology || this.worker || self.endsWith('.ts')) return;
    this.building = true;
    const graph = this.graph;
    const started = performance.now();
    const input = { nodeCount: graph.nodeCount, edgeCount: graph.edgeCount, nodeLat: graph.nodeLat, nodeLng: graph.nodeLng, edgeFrom: graph.edgeFrom, edgeTo: graph.edgeTo, incidentOffset: graph.incidentOffset, incidentEdges: graph.incidentEdges };
    const worker = new Worker(new URL('./customisable.worker.js', self), { workerData: input });
    worker.unref();
    this.worker = worker;
    worker.on('message', (message: { kind: 'topology'; ms: number } | { kind: 'customised'; id: number; hierarchy: ContractionHierarchy; ms: number }) => {
      if (message.kind === 'topology') {
        this.topologyMs = performance.now() - started;
        this.building = false;
      } else {
        this.received(message.id, message.hierarchy, message.ms);
      }
      this.checkIdle();
    });
    // A failed worker: customisation falls back to this thread (as in the tests); routes in flight keep their metrics.
    worker.once('error', () => {
      this.worker = null;
      this.building = false;
      this.inFlight.clear();
      this.inFlightKeys.clear();
      this.checkIdle();
    });
  }

  /** Resolves when the worker has nothing in hand (the topology built, no customisation in flight). */
  settled(): Promise<void> {
    if (!this.busy) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  private get busy(): boolean {
    return this.building || this.inFlight.size > 0;
  }

  private checkIdle(): void {
    if (this.busy) return;
    const waiting = this.idle;
    this.idle = [];
    for (const resolve of waiting) resolve();
  }

  /**
   * The metric for `key` (null while its first customisation is being made
   * in the worker, or the topology built); a newer `version` is taken in after
   * the debounce.
   */
  get(key: string, version: number, weights: () => Weighted): Metric | null {
    const current = this.metrics.get(key);
    if (!current) {
      if (this.building || this.inFlightKeys.has(key)) return null;
      if (this.worker) {
        this.send(key, version, weights());
        return null;
      }
      const metric = this.customiseHere(weights(), version);
      this.keep(key, metric);
      return metric;
    }
    // Most recently used last.
    this.metrics.delete(key);
    this.metrics.set(key, current);
    if (current.version !== version) {
      this.pending.set(key, { version, weights });
      this.timer ??= setTimeout(() => this.flush(), RECUSTOMISE_DEBOUNCE_MS);
      this.timer.unref?.();
    }
    return current;
  }

  /** Re-customises every key whose factors changed (the debounce timer's work; tests call it directly). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const pending = [...this.pending];
    this.pending.clear();
    for (const [key, { version, weights }] of pending) {
      if (!this.metrics.has(key) || this.inFlightKeys.has(key)) continue;
      if (this.worker) this.send(key, version, weights());
      else this.metrics.set(key, this.customiseHere(weights(), version));
    }
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.pending.clear();
    void this.worker?.terminate();
    this.worker = null;
    this.building = false;
    this.inFlight.clear();
    this.inFlightKeys.clear();
    this.checkIdle();
  }

  private send(key: string, version: number, weighted: Weighted): void {
    const id = ++this.requests;
    this.inFlight.set(id, { key, version, weighted, started: performance.now() });
    this.inFlightKeys.add(key);
    // The weights are copied (the metric keeps its own for seeds and direct legs).
    this.worker!.postMessage({ id, weights: weighted.weights });
  }

  private received(id: number, hierarchy: ContractionHierarchy, ms: number): void {
    const request = this.inFlight.get(id);
    if (!request) return;
    this.inFlight.delete(id);
    this.inFlightKeys.delete(request.key);
    this.customisations++;
    this.lastCustomiseMs = ms;
    // One assignment: the key's routes move from the old weights to the new.
    this.keep(request.key, { weights: request.weighted.weights, factors: request.weighted.factors, query: new HierarchyQuery(hierarchy), version: request.version });
  }

  private keep(key: string, metric: Metric): void {
    this.metrics.delete(key);
    this.metrics.set(key, metric);
    while (this.metrics.size > KEPT_METRICS) this.metrics.delete(this.metrics.keys().next().value!);
  }

  private customiseHere({ weights, factors }: Weighted, version: number): Metric {
    if (contractsInFull(this.graph.nodeCount)) {
      const started = performance.now();
      const query = new HierarchyQuery(contractMetric(this.graph, weights));
      this.lastCustomiseMs = performance.now() - started;
      this.customisations++;
      return { weights, factors, query, version };
    }
    if (!this.topology) {
      const started = performance.now();
      this.topology = buildCchTopology(this.graph);
      this.topologyMs = performance.now() - started;
    }
    const started = performance.now();
    const query = new HierarchyQuery(customise(this.topology, weights));
    this.lastCustomiseMs = performance.now() - started;
    this.customisations++;
    return { weights, factors, query, version };
  }
}

export interface Weighted {
  weights: Int32Array;
  factors: Float64Array;
}

/** Integer weights of one mode under a per-edge multiplier (Infinity: closed), as customisation and the seeds read them, and the multipliers. */
export function weightedCopy(base: Int32Array, edgeCount: number, factor: (edge: number, dir: number) => number): Weighted {
  const weights = new Int32Array(base.length);
  const factors = new Float64Array(base.length).fill(1);
  for (let e = 0; e < edgeCount; e++) {
    for (let dir = 0; dir < 2; dir++) {
      const w = base[2 * e + dir];
      if (w === NO_ACCESS) {
        weights[2 * e + dir] = NO_ACCESS;
        continue;
      }
      const f = factor(e, dir);
      factors[2 * e + dir] = f;
      weights[2 * e + dir] = f === Infinity ? NO_ACCESS : Math.min(INFINITE_WEIGHT - 1, Math.round(w * f));
    }
  }
  return { weights, factors };
}

/**
 * Road edges a set of circles closes: every edge whose line (not only its
 * points: a long straight segment may cross a circle with no vertex inside)
 * passes within a circle's radius.
 */
export function closedEdges(graph: RoadGraph, areas: ReadonlyArray<{ lat: number; lng: number; radius_m: number }>): Set<number> {
  const closed = new Set<number>();
  if (areas.length === 0) return closed;
  for (let e = 0; e < graph.edgeCount; e++) {
    const start = graph.geomOffset[e];
    const end = graph.geomOffset[e + 1] - 1;
    let minLat = Infinity;
    let maxLat = -Infinity;
    let minLng = Infinity;
    let maxLng = -Infinity;
    for (let p = start; p <= end; p++) {
      const lat = graph.geomLat[p];
      const lng = graph.geomLng[p];
      if (lat < minLat) minLat = lat;
      if (lat > maxLat) maxLat = lat;
      if (lng < minLng) minLng = lng;
      if (lng > maxLng) maxLng = lng;
    }
    for (const area of areas) {
      // A degree is at least 110 km of latitude and, below 60°, 55 km of longitude: outside the box, outside the circle.
      const reachLat = area.radius_m / 110_000;
      const reachLng = area.radius_m / 55_000;
      if (area.lat < minLat - reachLat || area.lat > maxLat + reachLat || area.lng < minLng - reachLng || area.lng > maxLng + reachLng) continue;
      let inside = greatCircleM(area.lat, area.lng, graph.geomLat[start], graph.geomLng[start]) <= area.radius_m;
      for (let p = start; p < end && !inside; p++) {
        inside = projectOnSegment(area.lat, area.lng, graph.geomLat[p], graph.geomLng[p], graph.geomLat[p + 1], graph.geomLng[p + 1]).distanceM <= area.radius_m;
      }
      if (inside) {
        closed.add(e);
        break;
      }
    }
  }
  return closed;
}
