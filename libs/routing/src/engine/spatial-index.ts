import { EARTH_RADIUS_M, RAD } from '../../../platform/src/geo/geodesy.js';
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

  /**
   * The nearest point within `radiusM` on an edge `weights` opens in some
   * direction; null if none. Cells are visited nearest first and the search
   * stops at the first cell farther than the best hit (a segment's nearest
   * point lies in a cell it is listed in, no nearer than that cell's box), so
   * a point on a road looks at a cell or two instead of every cell within the
   * radius. Distances are those of `projectOnSegment` (the same arithmetic,
   * without allocating); ties go to the segment a full row-by-row scan of the
   * window meets first, so snaps are those of the earlier full scan.
   */
  nearest(lat: number, lng: number, radiusM: number, weights: Int32Array | null): Snap | null {
    const { geomLat, geomLng } = this.graph;
    const dLat = radiusM / 111_195;
    const dLng = radiusM / (111_195 * Math.max(0.05, Math.cos((lat * Math.PI) / 180)));
    const r0 = Math.floor((lat - dLat) / CELL_DEGREES);
    const r1 = Math.floor((lat + dLat) / CELL_DEGREES);
    const c0 = Math.floor((lng - dLng) / CELL_DEGREES);
    const c1 = Math.floor((lng + dLng) / CELL_DEGREES);
    const kx = Math.cos(lat * RAD) * RAD * EARTH_RADIUS_M;
    const ky = RAD * EARTH_RADIUS_M;
    // Cells within the radius that hold segments, by the distance from the point to their box.
    const cells: Array<{ at: number; order: number; distanceM: number }> = [];
    const columns = c1 - c0 + 1;
    for (let r = r0; r <= r1; r++) {
      const boxLat = Math.min(Math.max(lat, r * CELL_DEGREES), (r + 1) * CELL_DEGREES);
      for (let c = c0; c <= c1; c++) {
        const at = this.findCell(cellKey(r, c));
        if (at < 0) continue;
        const boxLng = Math.min(Math.max(lng, c * CELL_DEGREES), (c + 1) * CELL_DEGREES);
        const x = (boxLng - lng) * kx;
        const y = (boxLat - lat) * ky;
        const distanceM = Math.sqrt(x * x + y * y);
        if (distanceM <= radiusM) cells.push({ at, order: (r - r0) * columns + (c - c0), distanceM });
      }
    }
    cells.sort((a, b) => a.distanceM - b.distanceM || a.order - b.order);
    let bestPoint = -1;
    let bestDistance = Infinity;
    let bestT = 0;
    // Where a row-by-row scan of the window meets a segment first: the first cell of its box, then segment order within the cell.
    const scanOrder = (p: number) => {
      const row = Math.max(r0, Math.floor(Math.min(geomLat[p], geomLat[p + 1]) / CELL_DEGREES));
      const column = Math.max(c0, Math.floor(Math.min(geomLng[p], geomLng[p + 1]) / CELL_DEGREES));
      return ((row - r0) * columns + (column - c0)) * 1e9 + p;
    };
    for (const cell of cells) {
      // A margin for rounding: cells as far as the best hit may still hold a tie.
      if (cell.distanceM > bestDistance + 1e-6) break;
      for (let k = this.cellOffset[cell.at]; k < this.cellOffset[cell.at + 1]; k++) {
        const p = this.segments[k];
        const edge = this.segmentEdge[p];
        if (weights && weights[2 * edge] === NO_ACCESS && weights[2 * edge + 1] === NO_ACCESS) continue;
        // projectOnSegment's arithmetic, inline.
        const ax = (geomLng[p] - lng) * kx;
        const ay = (geomLat[p] - lat) * ky;
        const dx = (geomLng[p + 1] - lng) * kx - ax;
        const dy = (geomLat[p + 1] - lat) * ky - ay;
        const length2 = dx * dx + dy * dy;
        let t = length2 === 0 ? 0 : -(ax * dx + ay * dy) / length2;
        t = Math.max(0, Math.min(1, t));
        const x = ax + t * dx;
        const y = ay + t * dy;
        const distanceM = Math.sqrt(x * x + y * y);
        if (distanceM > radiusM || distanceM > bestDistance) continue;
        // A tie (a point on a junction) goes to the segment a full scan meets first.
        if (distanceM === bestDistance && scanOrder(p) >= scanOrder(bestPoint)) continue;
        bestPoint = p;
        bestDistance = distanceM;
        bestT = t;
      }
    }
    if (bestPoint < 0) return null;
    const p = bestPoint;
    const edge = this.segmentEdge[p];
    const t = bestT;
    return {
      edge,
      segment: p - this.graph.geomOffset[edge],
      t,
      offsetM: this.pointOffsetM[p] + t * (this.pointOffsetM[p + 1] - this.pointOffsetM[p]),
      lat: geomLat[p] + t * (geomLat[p + 1] - geomLat[p]),
      lng: geomLng[p] + t * (geomLng[p + 1] - geomLng[p]),
      distanceM: bestDistance,
    };
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
