import { cosPoleWithin, greatCircleFloorM, greatCircleM } from '../../../../platform/src/geo/geodesy.js';
import type { Place } from '../../domain/place.js';
import { isLandmark, toLandmark, type Landmark } from './landmark.js';

/**
 * The landmarks of the live place sets on a fixed latitude/longitude grid
 * (cells of 0.01°, about 1.1 km north-south; narrower east-west away from the
 * equator). A query visits the grid cells around its centre in rings of
 * growing size and stops as soon as no unvisited cell can hold a nearer
 * landmark than the ones it keeps, so its cost depends on the landmarks near
 * the point and the radius, not on the size of the dataset (docs/adr/0013).
 */
export const GRID_DEGREES = 0.01;
const METRES_PER_DEGREE_LAT = 111_320;
/** Rows are keyed as one number: (row + ROW_OFFSET) * COLUMNS + column + COLUMN_OFFSET. */
const COLUMNS = 40_000;
const COLUMN_OFFSET = 20_000;
const ROW_OFFSET = 10_000;

export interface LandmarkHit {
  landmark: Landmark;
  distance_m: number;
}

export interface NearestQuery {
  lat: number;
  lng: number;
  /** Landmarks farther than this are not answered. */
  radiusM: number;
  /** How many of the nearest to answer. */
  count: number;
  /** Only landmarks this accepts count (inside a rectangle, with a photo, not excluded…). */
  accept?: (landmark: Landmark) => boolean;
}

export interface Rectangle {
  north: number;
  south: number;
  east: number;
  west: number;
}

export class LandmarkIndex {
  private readonly cells = new Map<number, Landmark[]>();
  private readonly byKey = new Map<string, Landmark>();
  /** Keys two source objects share (a 50-bit hash collision): neither is served under it, rather than the wrong one. */
  readonly collisions: string[] = [];

  constructor(places: Iterable<Place>) {
    const collided = new Set<string>();
    for (const place of places) {
      if (!isLandmark(place)) continue;
      const landmark = toLandmark(place);
      const existing = this.byKey.get(landmark.key);
      if (existing) {
        // The same source object in two place sets is one landmark; two objects under one key is a collision.
        if (existing.place.id !== place.id) collided.add(landmark.key);
        continue;
      }
      this.byKey.set(landmark.key, landmark);
      const cell = cellOf(place.lat, place.lng);
      let list = this.cells.get(cell);
      if (!list) this.cells.set(cell, (list = []));
      list.push(landmark);
    }
    for (const key of collided) {
      const landmark = this.byKey.get(key);
      this.byKey.delete(key);
      if (landmark) {
        const list = this.cells.get(cellOf(landmark.place.lat, landmark.place.lng));
        list?.splice(list.indexOf(landmark), 1);
      }
      this.collisions.push(key);
    }
  }

  get size(): number {
    return this.byKey.size;
  }

  byKeyOf(key: string): Landmark | undefined {
    return this.byKey.get(key);
  }

  /**
   * The `count` nearest accepted landmarks within `radiusM`, nearest first
   * (ties by slug, so pages are stable). Rings of grid cells are visited
   * outwards; after ring r every unvisited cell lies at least r cell widths
   * away, so once `count` hits are nearer than that the search stops.
   */
  nearest(query: NearestQuery): LandmarkHit[] {
    const { lat, lng, radiusM, count, accept } = query;
    if (count <= 0) return [];
    const row = Math.floor(lat / GRID_DEGREES);
    const column = Math.floor(lng / GRID_DEGREES);
    const cellHeightM = GRID_DEGREES * METRES_PER_DEGREE_LAT;
    // The narrowest cell width within reach: at the latitude nearest the pole the radius allows.
    const farthestLat = Math.min(89.9, Math.abs(lat) + radiusM / METRES_PER_DEGREE_LAT);
    const cellWidthM = cellHeightM * Math.cos((farthestLat * Math.PI) / 180);
    const maxRing = Math.min(Math.ceil(radiusM / Math.max(1, Math.min(cellHeightM, cellWidthM))) + 1, 18_000);
    const hits: LandmarkHit[] = [];
    const cosPole = cosPoleWithin(lat, radiusM);
    // No answer lies farther than this: the radius, then the count-th nearest kept so far (a tie still counts).
    let within = radiusM;
    for (let ring = 0; ring <= maxRing; ring++) {
      for (const [cellRow, cellColumn] of ringCells(row, column, ring)) {
        const list = this.cells.get(cellKey(cellRow, cellColumn));
        if (!list) continue;
        // A whole cell beyond the nearest kept so far is skipped: its nearest edge or corner is already too far.
        if (within < radiusM) {
          const south = cellRow * GRID_DEGREES;
          const west = cellColumn * GRID_DEGREES;
          const edgeLat = Math.min(Math.max(lat, south), south + GRID_DEGREES);
          const edgeLng = Math.min(Math.max(lng, west), west + GRID_DEGREES);
          if (greatCircleFloorM(lat, lng, edgeLat, edgeLng, cosPole) > within) continue;
        }
        for (const landmark of list) {
          const { lat: atLat, lng: atLng } = landmark.place;
          if (greatCircleFloorM(lat, lng, atLat, atLng, cosPole) > within) continue;
          const distance = greatCircleM(lat, lng, atLat, atLng);
          if (distance > within || (accept && !accept(landmark))) continue;
          hits.push({ landmark, distance_m: distance });
          if (count === 1 && distance < within) within = distance;
        }
      }
      // 1 % slack: grid distances are measured along parallels, answers along great circles.
      const bound = ring * Math.min(cellHeightM, cellWidthM) * 0.99;
      if (bound > radiusM) break;
      if (hits.length >= count) {
        hits.sort(byDistance);
        hits.length = count;
        within = Math.min(within, hits[count - 1].distance_m);
        if (hits[count - 1].distance_m <= bound) break;
      }
    }
    hits.sort(byDistance);
    return hits.slice(0, count);
  }

  /** Every landmark whose point lies inside the rectangle, nearest to `from` first (at most `count`). */
  inside(rectangle: Rectangle, from: { lat: number; lng: number }, count: number, accept?: (landmark: Landmark) => boolean): LandmarkHit[] {
    const corners: Array<[number, number]> = [
      [rectangle.north, rectangle.east],
      [rectangle.north, rectangle.west],
      [rectangle.south, rectangle.east],
      [rectangle.south, rectangle.west],
    ];
    const radiusM = Math.max(...corners.map(([cornerLat, cornerLng]) => greatCircleM(from.lat, from.lng, cornerLat, cornerLng))) + 1;
    return this.nearest({
      lat: from.lat,
      lng: from.lng,
      radiusM,
      count,
      accept: (landmark) => contains(rectangle, landmark.place) && (!accept || accept(landmark)),
    });
  }
}

export function contains(rectangle: Rectangle, point: { lat: number; lng: number }): boolean {
  return point.lat <= rectangle.north && point.lat >= rectangle.south && point.lng <= rectangle.east && point.lng >= rectangle.west;
}

function byDistance(a: LandmarkHit, b: LandmarkHit): number {
  return a.distance_m - b.distance_m || (a.landmark.slug < b.landmark.slug ? -1 : a.landmark.slug > b.landmark.slug ? 1 : 0);
}

function cellOf(lat: number, lng: number): number {
  return cellKey(Math.floor(lat / GRID_DEGREES), Math.floor(lng / GRID_DEGREES));
}

function cellKey(row: number, column: number): number {
  // Columns wrap at the antimeridian: 360° is 36,000 columns.
  const wrapped = ((((column + 18_000) % 36_000) + 36_000) % 36_000) - 18_000;
  return (row + ROW_OFFSET) * COLUMNS + wrapped + COLUMN_OFFSET;
}

/** The cells (row, column) at Chebyshev distance `ring` from (row, column): the centre for ring 0, then the square's border. */
function* ringCells(row: number, column: number, ring: number): Iterable<[number, number]> {
  if (ring === 0) {
    yield [row, column];
    return;
  }
  for (let dc = -ring; dc <= ring; dc++) {
    yield [row - ring, column + dc];
    yield [row + ring, column + dc];
  }
  for (let dr = -ring + 1; dr <= ring - 1; dr++) {
    yield [row + dr, column - ring];
    yield [row + dr, column + ring];
  }
}
