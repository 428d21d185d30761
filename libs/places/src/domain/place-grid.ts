import { cosPoleWithin, greatCircleFloorM, greatCircleM } from '../../../platform/src/geo/geodesy.js';
import type { Place } from './place.js';

/**
 * Places by position, for "what lies at this point" questions (GET
 * /v2/address/resolve: the named structures in or next to a code's cell).
 * Buckets of CELL_DEGREES × CELL_DEGREES hold the places whose point falls in
 * them; a query reads only the buckets its circle overlaps and measures the
 * places there, so its cost follows the density around the point, not the
 * size of the dataset. Radii are bounded (MAX_NEAR_RADIUS_M): this answers
 * "next to", not "in this region".
 */
export const MAX_NEAR_RADIUS_M = 5_000;
/** ≈ 1.1 km of latitude: a 5 km query reads at most 11 × 11 buckets away from the poles. */
const CELL_DEGREES = 0.01;
const METRES_PER_DEGREE_LAT = 111_320;
/** Longitude buckets are not narrowed further than this towards the poles (the circle's width in degrees grows without bound). */
const MIN_COS_LAT = 0.01;

export interface NearbyPlace {
  place: Place;
  distance_m: number;
}

export class PlaceGrid {
  private readonly buckets = new Map<number, Place[]>();

  constructor(places: Iterable<Place>) {
    for (const place of places) {
      if (!Number.isFinite(place.lat) || !Number.isFinite(place.lng)) continue;
      const key = bucketKey(row(place.lat), column(place.lng));
      const bucket = this.buckets.get(key);
      if (bucket) bucket.push(place);
      else this.buckets.set(key, [place]);
    }
  }

  /** Places within `radiusM` of the point, nearest first (ties by id), at most `limit`. */
  near(lat: number, lng: number, radiusM: number, limit: number): NearbyPlace[] {
    const radius = Math.min(Math.max(0, radiusM), MAX_NEAR_RADIUS_M);
    if (limit <= 0 || !Number.isFinite(lat) || !Number.isFinite(lng)) return [];
    const dLat = radius / METRES_PER_DEGREE_LAT;
    const dLng = Math.min(180, radius / (METRES_PER_DEGREE_LAT * Math.max(MIN_COS_LAT, Math.cos((lat * Math.PI) / 180))));
    const found: NearbyPlace[] = [];
    const cosPole = cosPoleWithin(lat, radius);
    // Nothing farther is answered: the radius, and for the nearest alone the nearest so far (plus the
    // decimetre distances are rounded to, so a place that rounds to the same distance still counts for the tie).
    let within = radius;
    const firstColumn = column(lng - dLng);
    const lastColumn = column(lng + dLng);
    const columns = Math.min(lastColumn - firstColumn, COLUMNS - 1);
    for (let r = row(Math.max(-90, lat - dLat)); r <= row(Math.min(90, lat + dLat)); r++) {
      // The bucket row's nearest latitude to the point: no place in the row is nearer in latitude.
      const rowLat = Math.min(Math.max(lat, r * CELL_DEGREES - 90), (r + 1) * CELL_DEGREES - 90);
      for (let step = 0; step <= columns; step++) {
        // Wraps across the antimeridian.
        const c = (((firstColumn + step) % COLUMNS) + COLUMNS) % COLUMNS;
        const bucket = this.buckets.get(bucketKey(r, c));
        if (!bucket) continue;
        // A whole bucket beyond the nearest kept so far is skipped: its nearest corner or edge is already too far.
        if (limit === 1 && within < radius) {
          const west = c * CELL_DEGREES - 180;
          const columnLng = Math.min(Math.max(lng, west), west + CELL_DEGREES);
          if (greatCircleFloorM(lat, lng, rowLat, columnLng, cosPole) > within) continue;
        }
        for (const place of bucket) {
          if (greatCircleFloorM(lat, lng, place.lat, place.lng, cosPole) > within) continue;
          const distance = greatCircleM(lat, lng, place.lat, place.lng);
          if (distance > radius) continue;
          found.push({ place, distance_m: Math.round(distance * 10) / 10 });
          if (limit === 1) within = Math.min(within, distance + 0.1);
        }
      }
    }
    found.sort((a, b) => a.distance_m - b.distance_m || (a.place.id < b.place.id ? -1 : a.place.id > b.place.id ? 1 : 0));
    return found.slice(0, limit);
  }

  /**
   * Every place whose point lies in the rectangle (edges included), in no
   * particular order: reads only the buckets the rectangle overlaps (retail
   * density counts places per hex over a bounded box). No antimeridian crossing.
   */
  forEachIn(box: { north: number; south: number; east: number; west: number }, visit: (place: Place) => void): void {
    for (let r = row(Math.max(-90, box.south)); r <= row(Math.min(90, box.north)); r++) {
      for (let c = column(box.west); c <= column(box.east); c++) {
        for (const place of this.buckets.get(bucketKey(r, c)) ?? []) {
          if (place.lat >= box.south && place.lat <= box.north && place.lng >= box.west && place.lng <= box.east) visit(place);
        }
      }
    }
  }
}

const COLUMNS = Math.round(360 / CELL_DEGREES);

function row(lat: number): number {
  return Math.floor((lat + 90) / CELL_DEGREES);
}

function column(lng: number): number {
  return Math.floor((lng + 180) / CELL_DEGREES);
}

function bucketKey(r: number, c: number): number {
  return r * COLUMNS + (((c % COLUMNS) + COLUMNS) % COLUMNS);
}
