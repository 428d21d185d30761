import { compactCells, getHexagonAreaAvg, getHexagonEdgeLengthAvg, polygonToCellsExperimental, POLYGON_TO_CELLS_FLAGS, UNITS } from 'h3-js';
import { DomainError } from '../../../../platform/src/errors.js';
import type { PolygonLimits } from './geometry.js';
import { Polygon } from './geometry.js';

/**
 * POST /v2/service-area: the H3 cells of a polygon at one resolution.
 * `containment` says which cells count: `overlapping` (default: every cell
 * touching the polygon, so the cells cover all of it), `center` (cells whose
 * centre is inside, H3's classic polyfill) or `full` (cells wholly inside).
 * `compact` replaces complete groups of seven children by their parent.
 */
export const SERVICE_AREA_CONTAINMENTS = ['overlapping', 'center', 'full'] as const;
export type ServiceAreaContainment = (typeof SERVICE_AREA_CONTAINMENTS)[number];
export const SERVICE_AREA_DEFAULT_RESOLUTION = 9;
export const SERVICE_AREA_MIN_RESOLUTION = 0;
export const SERVICE_AREA_MAX_RESOLUTION = 15;
/** Cells in one answer (after compaction). */
export const SERVICE_AREA_MAX_CELLS = 10_000;
/** Cells computed before compaction: bounds the work of one request. */
export const SERVICE_AREA_MAX_COMPUTED_CELLS = 50_000;
export const SERVICE_AREA_POLYGON_LIMITS: PolygonLimits = { maxVertices: 1000, maxHoles: 20, minAreaM2: 1, maxAreaM2: 1e12 };

const FLAGS: Record<ServiceAreaContainment, string> = {
  overlapping: POLYGON_TO_CELLS_FLAGS.containmentOverlapping,
  center: POLYGON_TO_CELLS_FLAGS.containmentCenter,
  full: POLYGON_TO_CELLS_FLAGS.containmentFull,
};

export class ServiceAreaTooLargeError extends DomainError {
  readonly code = 'SERVICE_AREA_TOO_LARGE';
  readonly status = 400;
  override readonly field = 'resolution';
  /** What the refusal says, to make it again on another thread. */
  readonly counts: { cells: number; limit: number; compact: boolean };
  constructor(cells: number, limit: number, compact: boolean) {
    super(
      `the polygon holds about ${cells} cells at this resolution, more than the ${limit} ${compact ? 'a request may compute' : 'an answer may hold'}; ` +
        `ask for a coarser resolution${compact ? '' : ' or "compact": true'}`,
    );
    this.counts = { cells, limit, compact };
  }
}

export interface ServiceArea {
  resolution: number;
  containment: ServiceAreaContainment;
  compact: boolean;
  cells: string[];
}

export function serviceAreaCells(polygon: Polygon, resolution: number, containment: ServiceAreaContainment, compact: boolean): ServiceArea {
  checkServiceAreaEstimate(polygon, resolution, compact);
  return { resolution, containment, compact, cells: coverCells(polygon.coverRings(), resolution, containment, compact) };
}

/**
 * Refuses an area estimated too large before computing anything (cheap: the
 * area's cells plus a band along the edges), so the one call that follows
 * is bounded.
 */
export function checkServiceAreaEstimate(polygon: Polygon, resolution: number, compact: boolean): void {
  const perimeterM = polygon.rings.reduce((sum, ring) => sum + ringLengthM(ring), 0);
  const estimate = Math.ceil(polygon.areaM2 / getHexagonAreaAvg(resolution, UNITS.m2) + (2 * perimeterM) / getHexagonEdgeLengthAvg(resolution, UNITS.m));
  const computeLimit = compact ? SERVICE_AREA_MAX_COMPUTED_CELLS : SERVICE_AREA_MAX_CELLS;
  if (estimate > computeLimit * 1.5) throw new ServiceAreaTooLargeError(estimate, computeLimit, compact);
}

/**
 * The cells of rings already checked (`Polygon.coverRings()`): one H3 call of
 * up to 50,000 cells, self-contained, so it can run in a worker thread
 * (service-area.thread.ts; docs/adr/0042).
 */
export function coverCells(rings: number[][][], resolution: number, containment: ServiceAreaContainment, compact: boolean): string[] {
  const computeLimit = compact ? SERVICE_AREA_MAX_COMPUTED_CELLS : SERVICE_AREA_MAX_CELLS;
  const raw = polygonToCellsExperimental(rings, resolution, FLAGS[containment], true);
  if (raw.length > computeLimit) throw new ServiceAreaTooLargeError(raw.length, computeLimit, compact);
  const cells = compact ? compactCells(raw) : raw;
  if (cells.length > SERVICE_AREA_MAX_CELLS) throw new ServiceAreaTooLargeError(cells.length, SERVICE_AREA_MAX_CELLS, false);
  return cells;
}

function ringLengthM(ring: Float64Array): number {
  let total = 0;
  for (let i = 0; i + 3 < ring.length; i += 2) {
    const meanLat = ((ring[i + 1] + ring[i + 3]) / 2) * (Math.PI / 180);
    const dx = (ring[i + 2] - ring[i]) * Math.cos(meanLat);
    const dy = ring[i + 3] - ring[i + 1];
    total += Math.hypot(dx, dy) * 111_195;
  }
  return total;
}
