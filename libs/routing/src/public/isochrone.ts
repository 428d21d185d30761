import { InvalidParamError } from '../../../platform/src/index.js';
import { NoRoadNearbyError, RoadNetworkNotLoadedError } from '../domain/errors.js';
import { MODES, parseMode, type Mode } from '../domain/profiles.js';
import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import { MinHeap } from '../engine/heap.js';
import { IsochroneOutliner } from '../engine/isochrone-outliner.js';
import { SNAP_RADIUS_M, type LoadedNetwork } from '../engine/loaded-network.js';
import { NO_ACCESS, WEIGHT_UNITS_PER_SECOND } from '../engine/road-graph.js';
import type { LatLng } from '../routing-engine.port.js';

export const ISOCHRONE_MIN_MINUTES = 1;
export const ISOCHRONE_MAX_MINUTES = 60;
/** Samples along reached road: dense enough that no res-9 cell (≈ 350 m across) a road crosses is missed. */
const SAMPLE_EVERY_M = 90;
export interface IsochroneRequest {
  center: LatLng;
  minutes: number;
  /** A mode as clients send it (okada, empty…): parsed like POST /v2/route's. */
  mode?: unknown;
}

export interface Isochrone {
  mode: Mode;
  minutes: number;
  center: LatLng;
  /** Where the centre meets the road network. */
  snapped: LatLng;
  /** The reachable area: a GeoJSON Polygon ([lng, lat], closed rings, at most 1000 outer vertices and 20 holes). */
  polygon: { type: 'Polygon'; coordinates: Array<Array<[number, number]>> };
  /** Its H3 cover: the cells (of `h3_resolution`) that reachable road touches, connected to the centre. */
  h3_resolution: number;
  h3_cells: string[];
  /** Road reachable within the time, in metres (both directions counted once). */
  reachable_road_m: number;
}

/**
 * The area reachable on the road network within `minutes` (isochrone
 * geofences, issue #15): a Dijkstra from the snapped centre bounded by the
 * time, the reached roads (partly reached edges cut where time runs out)
 * sampled every 90 m, the H3 cells holding them at the finest resolution
 * (9, then 8, 7) whose outline fits a geofence polygon, and that outline.
 *
 * For the monitoring context (docs/adr/0018, "Isochrone geofences"): call
 * `await isochrone({center, minutes, mode})`, store `polygon` as the fence's
 * geometry and `h3_cells` (or index the polygon as for polygon fences).
 */
export class IsochroneService {
  constructor(
    private readonly network: () => LoadedNetwork | null,
    private readonly outliner = new IsochroneOutliner(),
  ) {}

  onModuleDestroy(): Promise<void> {
    return this.outliner.close();
  }

  async isochrone(request: IsochroneRequest): Promise<Isochrone> {
    const mode = parseMode(request.mode);
    const minutes = request.minutes;
    if (typeof minutes !== 'number' || !Number.isFinite(minutes) || minutes < ISOCHRONE_MIN_MINUTES || minutes > ISOCHRONE_MAX_MINUTES) {
      throw new InvalidParamError(`minutes must be a number from ${ISOCHRONE_MIN_MINUTES} to ${ISOCHRONE_MAX_MINUTES}`, 'minutes');
    }
    const net = this.network();
    if (!net) throw new RoadNetworkNotLoadedError();
    const snap = net.snap(request.center.lat, request.center.lng, mode);
    if (!snap) throw new NoRoadNearbyError('center', mode, SNAP_RADIUS_M);
    const graph = net.graph;
    const weights = graph.weights[MODES.indexOf(mode)];
    const budget = minutes * 60 * WEIGHT_UNITS_PER_SECOND;
    const dist = new Float64Array(graph.nodeCount).fill(Infinity);
    const heap = new MinHeap(1024);
    const length = net.index.edgeLengthM(snap.edge) || 1;
    const along = snap.offsetM / length;
    const seed = (node: number, cost: number) => {
      if (cost < dist[node]) {
        dist[node] = cost;
        heap.push(cost, node);
      }
    };
    if (weights[2 * snap.edge] !== NO_ACCESS) seed(graph.edgeTo[snap.edge], weights[2 * snap.edge] * (1 - along));
    if (weights[2 * snap.edge + 1] !== NO_ACCESS) seed(graph.edgeFrom[snap.edge], weights[2 * snap.edge + 1] * along);
    while (heap.size > 0) {
      const d = heap.topKey;
      const u = heap.topValue;
      heap.pop();
      if (d > dist[u] || d > budget) continue;
      for (let k = graph.incidentOffset[u]; k < graph.incidentOffset[u + 1]; k++) {
        const edge = graph.incidentEdges[k];
        const dir = graph.edgeFrom[edge] === u ? 0 : 1;
        const w = weights[2 * edge + dir];
        if (w === NO_ACCESS) continue;
        const x = graph.head(edge, dir);
        if (d + w < dist[x]) {
          dist[x] = d + w;
          heap.push(d + w, x);
        }
      }
    }
    // Reached stretches of every edge, sampled: lat, lng pairs in one growing typed array (pairs as arrays cost ~10× the memory).
    const samples = new Samples();
    samples.push(snap.lat, snap.lng);
    let reachable = 0;
    for (let edge = 0; edge < graph.edgeCount; edge++) {
      let reachedFromStart = 0;
      let reachedFromEnd = 0;
      const from = graph.edgeFrom[edge];
      const to = graph.edgeTo[edge];
      if (dist[from] <= budget && weights[2 * edge] !== NO_ACCESS) reachedFromStart = Math.min(1, (budget - dist[from]) / weights[2 * edge]);
      if (dist[to] <= budget && weights[2 * edge + 1] !== NO_ACCESS) reachedFromEnd = Math.min(1, (budget - dist[to]) / weights[2 * edge + 1]);
      if (edge === snap.edge) {
        if (weights[2 * edge] !== NO_ACCESS) reachedFromStart = Math.max(reachedFromStart, Math.min(1, along + budget / weights[2 * edge]));
        if (weights[2 * edge + 1] !== NO_ACCESS) reachedFromEnd = Math.max(reachedFromEnd, Math.min(1, 1 - along + budget / weights[2 * edge + 1]));
      }
      if (reachedFromStart === 0 && reachedFromEnd === 0) continue;
      const total = graph.edgeLength[edge];
      reachable += Math.min(total, total * (reachedFromStart + reachedFromEnd));
      sampleEdge(net, edge, reachedFromStart, reachedFromEnd, samples);
    }
    const outline = await this.outliner.outline(samples.array(), samples.count);
    if (outline) {
      return {
        mode,
        minutes,
        center: request.center,
        snapped: { lat: snap.lat, lng: snap.lng },
        polygon: outline.polygon,
        h3_resolution: outline.h3_resolution,
        h3_cells: outline.h3_cells,
        reachable_road_m: Math.round(reachable),
      };
    }
    throw new InvalidParamError(`the area reachable in ${minutes} minutes is too large to outline as a fence; use fewer minutes`, 'minutes');
  }
}

function sampleEdge(net: LoadedNetwork, edge: number, fromStart: number, fromEnd: number, out: Samples): void {
  const graph = net.graph;
  const start = graph.geomOffset[edge];
  const end = graph.geomOffset[edge + 1];
  const total = graph.edgeLength[edge] || 1;
  let travelled = 0;
  for (let p = start; p < end - 1; p++) {
    const segment = greatCircleM(graph.geomLat[p], graph.geomLng[p], graph.geomLat[p + 1], graph.geomLng[p + 1]);
    const steps = Math.max(1, Math.ceil(segment / SAMPLE_EVERY_M));
    for (let s = 0; s <= steps; s++) {
      const at = (travelled + (segment * s) / steps) / total;
      if (at <= fromStart || at >= 1 - fromEnd) {
        const t = s / steps;
        out.push(graph.geomLat[p] + t * (graph.geomLat[p + 1] - graph.geomLat[p]), graph.geomLng[p] + t * (graph.geomLng[p + 1] - graph.geomLng[p]));
      }
    }
    travelled += segment;
  }
}

/** Points as lat, lng pairs in a Float64Array that doubles as it fills. */
class Samples {
  private data = new Float64Array(8192);
  count = 0;

  push(lat: number, lng: number): void {
    if (2 * this.count + 2 > this.data.length) {
      const grown = new Float64Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[2 * this.count] = lat;
    this.data[2 * this.count + 1] = lng;
    this.count++;
  }

  /** The filled part, on its own buffer (it is moved to the outline thread). */
  array(): Float64Array {
    return this.data.slice(0, 2 * this.count);
  }
}
