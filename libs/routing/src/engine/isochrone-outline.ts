import { cellsToMultiPolygon, latLngToCell } from 'h3-js';

/** Vertices of the outer ring at most (the geofence polygon limit is 1000): a coarser H3 resolution is used when finer cells would exceed it. */
export const ISOCHRONE_MAX_VERTICES = 1000;
export const ISOCHRONE_MAX_HOLES = 20;
const RESOLUTIONS = [9, 8, 7, 6];

export interface IsochroneOutline {
  polygon: { type: 'Polygon'; coordinates: Array<Array<[number, number]>> };
  h3_resolution: number;
  h3_cells: string[];
}

/**
 * The outline of reached road (public/isochrone.ts): the H3 cells holding
 * the samples at the finest resolution (9, then 8, 7, 6) whose outline fits
 * a geofence polygon, the piece holding the centre, and the cells inside it.
 * Null when no resolution fits. Self-contained (the samples in, the outline
 * out), so it runs on a worker thread (isochrone-outliner.ts): the
 * `cellsToMultiPolygon` of a 60-minute area alone held the event loop for
 * hundreds of ms (docs/adr/0042).
 *
 * `samples` holds `count` points as lat, lng pairs; the first is the snapped centre.
 */
export function outlineIsochrone(samples: Float64Array, count: number): IsochroneOutline | null {
  const centreLat = samples[0];
  const centreLng = samples[1];
  for (const resolution of RESOLUTIONS) {
    // A cell counts in the cover when a sample in it lies inside the outline kept (cells of other pieces are left out).
    const sampleOf = new Map<string, number>();
    for (let i = 0; i < count; i++) {
      const cell = latLngToCell(samples[2 * i], samples[2 * i + 1], resolution);
      if (!sampleOf.has(cell)) sampleOf.set(cell, i);
    }
    const cells = [...sampleOf.keys()];
    const centre = latLngToCell(centreLat, centreLng, resolution);
    const polygons = cellsToMultiPolygon(cells, true) as Array<Array<Array<[number, number]>>>;
    // The piece holding the centre (cells reached over a bridge with nothing in between come apart).
    const polygon = polygons.find((rings) => insideRing(rings[0], centreLng, centreLat)) ?? polygons.sort((a, b) => b[0].length - a[0].length)[0];
    if (!polygon || polygon[0].length - 1 > ISOCHRONE_MAX_VERTICES) continue;
    const holes = polygon.slice(1).sort((a, b) => ringArea(b) - ringArea(a)).slice(0, ISOCHRONE_MAX_HOLES);
    const rings = [polygon[0], ...holes].map(closeRing);
    const inPolygon = cells.filter((cell) => {
      const i = sampleOf.get(cell)!;
      return cell === centre || insideRing(rings[0], samples[2 * i + 1], samples[2 * i]);
    });
    return { polygon: { type: 'Polygon', coordinates: rings }, h3_resolution: resolution, h3_cells: inPolygon.sort() };
  }
  return null;
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
