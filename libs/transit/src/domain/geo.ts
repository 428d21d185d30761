/** A grid of points for "what is near here" (distances: platform's geodesy). */
import { greatCircleM, RAD } from '../../../platform/src/geo/geodesy.js';

export interface Point {
  lat: number;
  lng: number;
}

/**
 * Points bucketed in cells of about `cellM` metres: a radius query reads the
 * cells the circle's bounding box touches and measures only their points.
 * City-sized networks (thousands of stops) need no more.
 */
export class PointGrid {
  private readonly cells = new Map<string, number[]>();
  private readonly latStep: number;
  private readonly lngStep: number;

  constructor(
    private readonly lats: ArrayLike<number>,
    private readonly lngs: ArrayLike<number>,
    include: (index: number) => boolean = () => true,
    cellM = 500,
  ) {
    this.latStep = cellM / 111_320;
    let meanLat = 0;
    let count = 0;
    for (let i = 0; i < lats.length; i++) if (include(i)) (meanLat += lats[i]), count++;
    meanLat = count > 0 ? meanLat / count : 0;
    // One longitude step for the whole grid, at the network's mean latitude: cities are small.
    this.lngStep = cellM / (111_320 * Math.max(0.1, Math.cos(meanLat * RAD)));
    for (let i = 0; i < lats.length; i++) {
      if (!include(i)) continue;
      const key = this.key(Math.floor(lats[i] / this.latStep), Math.floor(lngs[i] / this.lngStep));
      const cell = this.cells.get(key);
      if (cell) cell.push(i);
      else this.cells.set(key, [i]);
    }
  }

  /** Indexes within `radiusM` of the point, nearest first, with their distances. */
  within(lat: number, lng: number, radiusM: number): Array<{ index: number; distanceM: number }> {
    const dLat = radiusM / 111_320;
    const dLng = radiusM / (111_320 * Math.max(0.01, Math.cos(lat * RAD)));
    const found: Array<{ index: number; distanceM: number }> = [];
    const y0 = Math.floor((lat - dLat) / this.latStep);
    const y1 = Math.floor((lat + dLat) / this.latStep);
    const x0 = Math.floor((lng - dLng) / this.lngStep);
    const x1 = Math.floor((lng + dLng) / this.lngStep);
    // A radius far larger than the network would walk a huge box of empty cells: the callers bound it.
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const cell = this.cells.get(this.key(y, x));
        if (!cell) continue;
        for (const index of cell) {
          const d = greatCircleM(lat, lng, this.lats[index], this.lngs[index]);
          if (d <= radiusM) found.push({ index, distanceM: d });
        }
      }
    }
    return found.sort((a, b) => a.distanceM - b.distanceM || a.index - b.index);
  }

  private key(y: number, x: number): string {
    return `${y}:${x}`;
  }
}
