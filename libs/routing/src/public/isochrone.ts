import { cellsToMultiPolygon, latLngToCell } from 'h3-js';
import { InvalidParamError } from '../../../platform/src/index.js';
import { NoRoadNearbyError, RoadNetworkNotLoadedError } from '../domain/errors.js';
import { MODES, parseMode, type Mode } from '../domain/profiles.js';
import { greatCircleM } from '../../../platform/src/geo/geodesy.js';
import { MinHeap } from '../engine/heap.js';
import { SNAP_RADIUS_M, type LoadedNetwork } from '../engine/loaded-network.js';
import { NO_ACCESS, WEIGHT_UNITS_PER_SECOND } from '../engine/road-graph.js';
import type { LatLng } from '../routing-engine.port.js';

export const ISOCHRONE_MIN_MINUTES = 1;
export const ISOCHRONE_MAX_MINUTES = 60;
/** Vertices of the outer ring at most (the geofence polygon limit is 1000): a coarser H3 resolution is used when finer cells would exceed it. */
export const ISOCHRONE_MAX_VERTICES = 1000;
export const ISOCHRONE_MAX_HOLES = 20;
/** Samples along reached road: dense enough that no res-9 cell (≈ 350 m across) a road crosses is missed. */
const SAMPLE_EVERY_M = 90;
/** H3 lookups between yields to the event loop (≈ 20 µs each): a large isochrone never holds it for long. */
const CELLS_PER_SLICE = 1500;

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
  constructor(private readonly network: () => LoadedNetwork | null) {}

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
    // Reached stretches of every edge, sampled.
    const samples: Array<[number, number]> = [[snap.lat, snap.lng]];
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
    for (const resolution of [9, 8, 7, 6]) {
      // A cell counts in the cover when a sample in it lies inside the outline kept (cells of other pieces are left out).
      const sampleOf = new Map<string, [number, number]>();
      for (const [i, sample] of samples.entries()) {
        const cell = latLngToCell(sample[0], sample[1], resolution);
        if (!sampleOf.has(cell)) sampleOf.set(cell, sample);
        if (i % CELLS_PER_SLICE === CELLS_PER_SLICE - 1) await new Promise((resolve) => setImmediate(resolve));
      }
      const cells = new Set(sampleOf.keys());
      const centre = latLngToCell(snap.lat, snap.lng, resolution);
      const polygons = cellsToMultiPolygon([...cells], true) as Array<Array<Array<[number, number]>>>;
      // The piece holding the centre (cells reached over a bridge with nothing in between come apart).
      const polygon = polygons.find((rings) => insideRing(rings[0], snap.lng, snap.lat)) ?? polygons.sort((a, b) => b[0].length - a[0].length)[0];
      if (!polygon || polygon[0].length - 1 > ISOCHRONE_MAX_VERTICES) continue;
      const holes = polygon.slice(1).sort((a, b) => ringArea(b) - ringArea(a)).slice(0, ISOCHRONE_MAX_HOLES);
      const rings = [polygon[0], ...holes].map(closeRing);
      const inPolygon = [...cells].filter((cell) => cell === centre || insideRing(rings[0], sampleOf.get(cell)![1], sampleOf.get(cell)![0]));
      return {
        mode,
        minutes,
        center: request.center,
        snapped: { lat: snap.lat, lng: snap.lng },
        polygon: { type: 'Polygon', coordinates: rings },
        h3_resolution: resolution,
        h3_cells: inPolygon.sort(),
        reachable_road_m: Math.round(reachable),
      };
    }
    throw new InvalidParamError(`the area reachable in ${minutes} minutes is too large to outline as a fence; use fewer minutes`, 'minutes');
  }
}

function sampleEdge(net: LoadedNetwork, edge: number, fromStart: number, fromEnd: number, out: Array<[number, number]>): void {
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
        out.push([graph.geomLat[p] + t * (graph.geomLat[p + 1] - graph.geomLat[p]), graph.geomLng[p] + t * (graph.geomLng[p + 1] - graph.geomLng[p])]);
      }
    }
    travelled += segment;
  }
}

function insideRing(ring: Array<[number, number]>, x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function ringArea(ring: Array<[number, number]>): number {
  let area = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) area += (ring[j][0] + ring[i][0]) * (ring[j][1] - ring[i][1]);
  return Math.abs(area / 2);
}

function closeRing(ring: Array<[number, number]>): Array<[number, number]> {
  const first = ring[0];
  const last = ring[ring.length - 1];
  return first[0] === last[0] && first[1] === last[1] ? ring : [...ring, first];
}
