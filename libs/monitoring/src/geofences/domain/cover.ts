import {
  cellToLatLng,
  compactCells,
  getHexagonAreaAvg,
  getHexagonEdgeLengthAvg,
  gridDisk,
  latLngToCell,
  polygonToCells,
  UNITS,
} from 'h3-js';
import { greatCircleM } from '../../../../platform/src/geo/geodesy.js';
import { Polygon, type Shape } from './geometry.js';

/**
 * The H3 cells a fence is indexed under (README, "Geofences and service areas").
 *
 * A ping is looked up by the *logical* ancestors of its resolution-15 cell
 * (the cell's digits cut short), not by `latLngToCell` at each resolution:
 * one H3 call per ping. A logical ancestor is not always the cell that
 * geometrically contains the point at that resolution (H3 children stick out
 * of their parent), but it is always that cell or one of its neighbours, and
 * every point whose ancestor is cell A lies within ~1.15 average edge
 * lengths of A's centre (measured over the globe; `cover.spec.ts` checks
 * both). So the candidates are generous and a distance test trims them:
 *
 * - candidates: the cells whose centre H3 finds inside the shape
 *   (`polygonToCells`), plus two rings around every cell the shape's edges
 *   pass through (edges sampled every half cell edge). A point of the shape
 *   lies in a cell of the first kind or in a cell its boundary crosses (or
 *   clips, next to a sampled one); its logical ancestor is that cell or a
 *   neighbour, and where a neighbour's centre is outside, the boundary
 *   passes between the two. (`polygonToCellsExperimental` in "overlapping"
 *   mode would find the first ring directly but is several times slower.)
 * - each candidate is judged by the distance from its centre to the shape's
 *   boundary, with a margin of DESCENDANT_REACH_EDGES edge lengths: farther
 *   outside than the margin, no point under it can be in the shape (dropped);
 *   deeper inside, every point under it is in the shape (`inside`, compacted,
 *   no exact test for a ping there); otherwise `boundary` (exact test).
 */
export const DESCENDANT_REACH_EDGES = 2;

/**
 * About this many cells of the chosen resolution fit in the shape's area: a
 * dozen or two entries per fence and a thin halo of candidates around it.
 * Few cells are then deep enough inside to skip the exact test, which costs
 * a haversine for a circle; polygons with many vertices, whose test costs more, go one
 * resolution finer (seven times the cells) so that their interior skips it.
 */
export const TARGET_CELLS_PER_AREA = 16;
export const DETAILED_POLYGON_VERTICES = 64;
/** Finer cells than this only add entries: res 13 cells are ~44 m² and the smallest circle is 314 m². */
export const FINEST_COVER_RESOLUTION = 13;
/** A shape whose candidates exceed this at the chosen resolution (long thin corridors) is covered one resolution coarser. */
export const MAX_COVER_CANDIDATES = 4000;
const BOUNDARY_RINGS = 2;

export interface FenceCover {
  resolution: number;
  /** Compacted: cells of `resolution` or coarser. */
  inside: string[];
  boundary: string[];
}

export function coverResolution(areaM2: number, vertices = 0): number {
  const target = TARGET_CELLS_PER_AREA * (vertices > DETAILED_POLYGON_VERTICES ? 7 : 1);
  for (let res = FINEST_COVER_RESOLUTION; res > 0; res--) {
    if (areaM2 / getHexagonAreaAvg(res, UNITS.m2) <= target) return res;
  }
  return 0;
}

/** `finest`: the resolution to try first (tests and benchmarks compare); by default from the area. */
export function coverShape(shape: Shape, finest?: number): FenceCover {
  const steps = coverSteps(shape, finest);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/** Work between two pauses of coverSteps, each about a few ms: vertices × candidates judged (a distance to each edge per candidate), edge samples located, boundary cells' disks. */
const WORK_PER_STEP = 10_000;
const SAMPLES_PER_STEP = 1000;
const DISKS_PER_STEP = 500;

/**
 * The cover in steps: the generator pauses (yields) between bounded amounts of
 * work and returns the cover. A 1,000-vertex isochrone polygon's thousands of
 * candidates, each a distance to every edge, held the event loop 90-290 ms
 * in one go; the geofence view gives the loop a turn at each pause
 * (FenceIndex.addSliced; docs/adr/0042). Pure: the same cover as coverShape.
 */
export function* coverSteps(shape: Shape, finest?: number): Generator<void, FenceCover> {
  const rings = shape.coverRings();
  const vertices = shape instanceof Polygon ? rings.reduce((sum, ring) => sum + ring.length - 1, 0) : 0;
  const perStep = Math.max(1, Math.floor(WORK_PER_STEP / Math.max(1, vertices)));
  for (let res = finest ?? coverResolution(shape.areaM2, vertices); ; res--) {
    const candidates = new Set<string>(polygonToCells(rings, res, true));
    const edges = new Set<string>();
    yield* edgeCells(rings, res, edges);
    let disks = 0;
    for (const cell of edges) {
      for (const near of gridDisk(cell, BOUNDARY_RINGS)) candidates.add(near);
      if (++disks % DISKS_PER_STEP === 0) yield;
    }
    yield;
    if (candidates.size > MAX_COVER_CANDIDATES && res > 0) continue;
    const margin = DESCENDANT_REACH_EDGES * getHexagonEdgeLengthAvg(res, UNITS.m);
    const inside: string[] = [];
    const boundary: string[] = [];
    let judged = 0;
    for (const cell of candidates) {
      if (++judged % perStep === 0) yield;
      const [lat, lng] = cellToLatLng(cell);
      const distance = shape.signedDistanceM(lat, lng);
      if (distance > margin) continue;
      if (distance < -margin) inside.push(cell);
      else boundary.push(cell);
    }
    return { resolution: res, inside: inside.length > 0 ? compactCells(inside) : [], boundary };
  }
}

/** The cells of `res` the rings' edges pass through, sampled every half cell edge (into `cells`; pausing every SAMPLES_PER_STEP samples). */
function* edgeCells(rings: number[][][], res: number, cells: Set<string>): Generator<void, void> {
  const step = getHexagonEdgeLengthAvg(res, UNITS.m) / 2;
  let sampled = 0;
  for (const ring of rings) {
    for (let i = 0; i + 1 < ring.length; i++) {
      const [lng1, lat1] = ring[i];
      const [lng2, lat2] = ring[i + 1];
      const samples = Math.max(1, Math.ceil(greatCircleM(lat1, lng1, lat2, lng2) / step));
      for (let k = 0; k <= samples; k++) {
        const t = k / samples;
        cells.add(latLngToCell(lat1 + (lat2 - lat1) * t, lng1 + (lng2 - lng1) * t, res));
        if (++sampled % SAMPLES_PER_STEP === 0) yield;
      }
    }
  }
}
