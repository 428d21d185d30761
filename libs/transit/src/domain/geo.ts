/** Distances on the sphere, and a grid of points for "what is near here". */

const EARTH_RADIUS_M = 6_371_008.8;
const RAD = Math.PI / 180;

export interface Point {
  lat: number;
  lng: number;
}

/** Great-circle distance in metres (haversine). */
export function distanceM(aLat: number, aLng: number, bLat: number, bLng: number): number {
  const dLat = (bLat - aLat) * RAD;
  const dLng = (bLng - aLng) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(aLat * RAD) * Math.cos(bLat * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

export function isCoordinate(lat: number, lng: number): boolean {
  return Number.isFinite(lat) && Number.isFinite(lng) && lat >= -90 && lat <= 90 && lng >= -180 && lng <= 180;
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
          const d = distanceM(lat, lng, this.lats[index], this.lngs[index]);
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
