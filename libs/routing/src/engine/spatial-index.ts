import { projectOnSegment } from './geo.js';
import { NO_ACCESS, type RoadGraph } from './road-graph.js';

/** Grid cells of 0.005° (about 550 m): a 1 km snap looks at a few dozen cells. */
const CELL_DEGREES = 0.005;

export interface Snap {
  edge: number;
  /** Index of the geometry segment within the edge, and the fraction along it. */
  segment: number;
  t: number;
  /** Metres from the edge's start along its geometry to the snapped point. */
  offsetM: number;
  lat: number;
  lng: number;
  distanceM: number;
}

/**
 * Road segments on a fixed lat/lng grid (CSR: cell → segment ids) for
 * snapping a point to the nearest edge a mode may use. Long segments are
 * listed in every cell their bounding box touches.
 */
/** The index's arrays: built once with the graph (in the preparation worker) and stored in the graph file. */
export interface SpatialIndexData {
  cellKeys: Float64Array;
  cellOffset: Int32Array;
  segments: Int32Array;
  /** Edge of each geometry segment (segment ids are geometry point ids; -1 for an edge's last point). */
  segmentEdge: Int32Array;
  /** Metres from the edge start to each geometry point. */
  pointOffsetM: Float64Array;
}

export class SpatialIndex {
  private readonly cellKeys: Float64Array;
  private readonly cellOffset: Int32Array;
  private readonly segments: Int32Array;
  private readonly segmentEdge: Int32Array;
  private readonly pointOffsetM: Float64Array;

  constructor(
    private readonly graph: RoadGraph,
    data: SpatialIndexData = SpatialIndex.build(graph),
  ) {
    this.cellKeys = data.cellKeys;
    this.cellOffset = data.cellOffset;
    this.segments = data.segments;
    this.segmentEdge = data.segmentEdge;
    this.pointOffsetM = data.pointOffsetM;
  }

  static build(graph: RoadGraph): SpatialIndexData {
    const { geomOffset, geomLat, geomLng } = graph;
    const points = geomLat.length;
    const segmentEdge = new Int32Array(points).fill(-1);
    const pointOffsetM = new Float64Array(points);
    const entries: Array<[number, number]> = [];
    for (let e = 0; e < graph.edgeCount; e++) {
      let offset = 0;
      for (let p = geomOffset[e]; p < geomOffset[e + 1]; p++) {
        if (p > geomOffset[e]) {
          const dLat = (geomLat[p] - geomLat[p - 1]) * 111_195;
          const dLng = (geomLng[p] - geomLng[p - 1]) * 111_195 * Math.cos((geomLat[p] * Math.PI) / 180);
          offset += Math.sqrt(dLat * dLat + dLng * dLng);
        }
        pointOffsetM[p] = offset;
        if (p === geomOffset[e + 1] - 1) continue;
        segmentEdge[p] = e;
        const r0 = Math.floor(Math.min(geomLat[p], geomLat[p + 1]) / CELL_DEGREES);
        const r1 = Math.floor(Math.max(geomLat[p], geomLat[p + 1]) / CELL_DEGREES);
        const c0 = Math.floor(Math.min(geomLng[p], geomLng[p + 1]) / CELL_DEGREES);
        const c1 = Math.floor(Math.max(geomLng[p], geomLng[p + 1]) / CELL_DEGREES);
        for (let r = r0; r <= r1 && r - r0 < 50; r++) for (let c = c0; c <= c1 && c - c0 < 50; c++) entries.push([cellKey(r, c), p]);
      }
    }
    entries.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const keys: number[] = [];
    const offsets: number[] = [];
    const segments = new Int32Array(entries.length);
    for (let i = 0; i < entries.length; i++) {
      if (i === 0 || entries[i][0] !== entries[i - 1][0]) {
        keys.push(entries[i][0]);
        offsets.push(i);
      }
      segments[i] = entries[i][1];
    }
    offsets.push(entries.length);
    return { cellKeys: Float64Array.from(keys), cellOffset: Int32Array.from(offsets), segments, segmentEdge, pointOffsetM };
  }

  /** The nearest point within `radiusM` on an edge `weights` opens in some direction; null if none. */
  nearest(lat: number, lng: number, radiusM: number, weights: Int32Array | null): Snap | null {
    const { geomLat, geomLng } = this.graph;
    const dLat = radiusM / 111_195;
    const dLng = radiusM / (111_195 * Math.max(0.05, Math.cos((lat * Math.PI) / 180)));
    const r0 = Math.floor((lat - dLat) / CELL_DEGREES);
    const r1 = Math.floor((lat + dLat) / CELL_DEGREES);
    const c0 = Math.floor((lng - dLng) / CELL_DEGREES);
    const c1 = Math.floor((lng + dLng) / CELL_DEGREES);
    let best: Snap | null = null;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const at = this.findCell(cellKey(r, c));
        if (at < 0) continue;
        for (let k = this.cellOffset[at]; k < this.cellOffset[at + 1]; k++) {
          const p = this.segments[k];
          const edge = this.segmentEdge[p];
          if (weights && weights[2 * edge] === NO_ACCESS && weights[2 * edge + 1] === NO_ACCESS) continue;
          const hit = projectOnSegment(lat, lng, geomLat[p], geomLng[p], geomLat[p + 1], geomLng[p + 1]);
          if (hit.distanceM > radiusM || (best && hit.distanceM >= best.distanceM)) continue;
          const offsetM = this.pointOffsetM[p] + hit.t * (this.pointOffsetM[p + 1] - this.pointOffsetM[p]);
          best = { edge, segment: p - this.graph.geomOffset[edge], t: hit.t, offsetM, lat: hit.lat, lng: hit.lng, distanceM: hit.distanceM };
        }
      }
    }
    return best;
  }

  /** Geometric length of an edge as this index measured it (the snap offsets' scale). */
  edgeLengthM(edge: number): number {
    return this.pointOffsetM[this.graph.geomOffset[edge + 1] - 1];
  }

  private findCell(key: number): number {
    let lo = 0;
    let hi = this.cellKeys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const value = this.cellKeys[mid];
      if (value === key) return mid;
      if (value < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }
}

function cellKey(row: number, column: number): number {
  return (row + 20_000) * 100_000 + (column + 40_000);
}
