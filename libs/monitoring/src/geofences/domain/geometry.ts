import { InvalidParamError } from '../../../../platform/src/errors.js';
import { destination, EARTH_RADIUS_M, greatCircleM, RAD } from '../../../../platform/src/geo/geodesy.js';

/**
 * Fence geometry: what "inside" means, exactly. Coordinates are WGS 84
 * degrees. A circle is the set of points within `radius_m` great-circle
 * metres of its centre (platform's geodesy: H3's haversine and radius). A
 * polygon's edges are straight lines in longitude/latitude (as H3's own
 * polygon functions treat them), holes are excluded, and the boundary
 * belongs to the fence: a point on an edge (within EDGE_TOLERANCE_DEG) or
 * exactly at `radius_m` is inside, a point on a hole's edge too.
 *
 * Limits: fences stay between latitudes ±85 and do not cross the
 * antimeridian (an edge spanning more than 180° of longitude is refused),
 * which covers every use in Africa and keeps the planar edge test and the
 * local metre projections below honest.
 */

export const MAX_FENCE_LATITUDE = 85;
/** ≈0.1 mm: below GPS precision, above floating-point noise on a degree scale. */
export const EDGE_TOLERANCE_DEG = 1e-9;

const METRES_PER_DEGREE = EARTH_RADIUS_M * RAD;

export interface LatLng {
  lat: number;
  lng: number;
}

/** GeoJSON Polygon (RFC 7946 §3.1.6): the outer ring, then holes; rings of `[lng, lat]`, closed. */
export interface GeoJsonPolygon {
  type: 'Polygon';
  coordinates: number[][][];
}

export interface PolygonLimits {
  maxVertices: number;
  maxHoles: number;
  minAreaM2: number;
  maxAreaM2: number;
}

/** What the fence index and the H3 cover need of a shape. */
export interface Shape {
  readonly areaM2: number;
  /** Boundary-inclusive membership test (see the file comment). */
  contains(lat: number, lng: number): boolean;
  /** Metres from the point to the boundary: negative inside, positive outside (approximate beyond a few hundred km). */
  signedDistanceM(lat: number, lng: number): number;
  /** A ring `[lng, lat][]` (closed) that contains the whole shape: what H3 is asked to cover. */
  coverRings(): number[][][];
}

export function parseLatLng(value: unknown, field: string, maxLatitude = 90): LatLng {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InvalidParamError(`${field} must be an object {lat, lng}`, field);
  const { lat, lng, ...rest } = value as Record<string, unknown>;
  const extra = Object.keys(rest)[0];
  if (extra !== undefined) throw new InvalidParamError(`${field}.${extra} is not a known field`, `${field}.${extra}`);
  if (typeof lat !== 'number' || !Number.isFinite(lat) || Math.abs(lat) > maxLatitude) {
    throw new InvalidParamError(`${field}.lat must be a number between -${maxLatitude} and ${maxLatitude}`, `${field}.lat`);
  }
  if (typeof lng !== 'number' || !Number.isFinite(lng) || Math.abs(lng) > 180) {
    throw new InvalidParamError(`${field}.lng must be a number between -180 and 180`, `${field}.lng`);
  }
  return { lat, lng };
}

export class Circle implements Shape {
  readonly areaM2: number;

  constructor(
    readonly lat: number,
    readonly lng: number,
    readonly radiusM: number,
  ) {
    // Spherical cap.
    this.areaM2 = 2 * Math.PI * EARTH_RADIUS_M ** 2 * (1 - Math.cos(radiusM / EARTH_RADIUS_M));
  }

  contains(lat: number, lng: number): boolean {
    return greatCircleM(this.lat, this.lng, lat, lng) <= this.radiusM;
  }

  signedDistanceM(lat: number, lng: number): number {
    return greatCircleM(this.lat, this.lng, lat, lng) - this.radiusM;
  }

  /** A 32-gon around the circle (circumscribed, plus 1 %), so every point of the circle is inside it. */
  coverRings(): number[][][] {
    const sides = 32;
    const reach = (this.radiusM / Math.cos(Math.PI / sides)) * 1.01;
    const ring: number[][] = [];
    for (let i = 0; i < sides; i++) {
      const point = destination(this.lat, this.lng, (360 * i) / sides, reach);
      ring.push([point.lng, point.lat]);
    }
    ring.push(ring[0]);
    return [ring];
  }

  /** Longitude and latitude half-extents, for the antimeridian and polar checks. */
  static extent(center: LatLng, radiusM: number): { dLat: number; dLng: number } {
    const delta = radiusM / EARTH_RADIUS_M;
    const dLat = delta / RAD;
    const cosLat = Math.cos(center.lat * RAD);
    const dLng = Math.sin(delta) >= cosLat ? 180 : Math.asin(Math.sin(delta) / cosLat) / RAD;
    return { dLat, dLng };
  }
}

/** A validated polygon: rings as flat `[lng0, lat0, lng1, lat1, …]`, closed (first pair repeated last). */
export class Polygon implements Shape {
  readonly areaM2: number;
  private readonly minLng: number;
  private readonly maxLng: number;
  private readonly minLat: number;
  private readonly maxLat: number;

  constructor(readonly rings: readonly Float64Array[]) {
    this.areaM2 = Math.max(0, rings.reduce((sum, ring, index) => sum + (index === 0 ? 1 : -1) * ringAreaM2(ring), 0));
    const outer = rings[0];
    let minLng = Infinity;
    let maxLng = -Infinity;
    let minLat = Infinity;
    let maxLat = -Infinity;
    for (let i = 0; i < outer.length; i += 2) {
      minLng = Math.min(minLng, outer[i]);
      maxLng = Math.max(maxLng, outer[i]);
      minLat = Math.min(minLat, outer[i + 1]);
      maxLat = Math.max(maxLat, outer[i + 1]);
    }
    this.minLng = minLng - EDGE_TOLERANCE_DEG;
    this.maxLng = maxLng + EDGE_TOLERANCE_DEG;
    this.minLat = minLat - EDGE_TOLERANCE_DEG;
    this.maxLat = maxLat + EDGE_TOLERANCE_DEG;
  }

  contains(lat: number, lng: number): boolean {
    if (lng < this.minLng || lng > this.maxLng || lat < this.minLat || lat > this.maxLat) return false;
    const outer = ringSide(this.rings[0], lng, lat);
    if (outer !== Side.Inside) return outer === Side.Boundary;
    for (let h = 1; h < this.rings.length; h++) {
      const side = ringSide(this.rings[h], lng, lat);
      if (side === Side.Boundary) return true;
      if (side === Side.Inside) return false;
    }
    return true;
  }

  signedDistanceM(lat: number, lng: number): number {
    // A local equirectangular projection around the point: lng/lat-straight edges stay straight in it.
    const kx = Math.cos(lat * RAD) * METRES_PER_DEGREE;
    const ky = METRES_PER_DEGREE;
    let best = Infinity;
    for (const ring of this.rings) {
      for (let i = 0; i + 3 < ring.length; i += 2) {
        const ax = (ring[i] - lng) * kx;
        const ay = (ring[i + 1] - lat) * ky;
        const bx = (ring[i + 2] - lng) * kx;
        const by = (ring[i + 3] - lat) * ky;
        const d = distanceToSegmentFromOrigin(ax, ay, bx, by);
        if (d < best) best = d;
      }
    }
    return this.contains(lat, lng) ? -best : best;
  }

  coverRings(): number[][][] {
    return this.rings.map((ring) => {
      const pairs: number[][] = [];
      for (let i = 0; i < ring.length; i += 2) pairs.push([ring[i], ring[i + 1]]);
      return pairs;
    });
  }

  toGeoJson(): GeoJsonPolygon {
    return { type: 'Polygon', coordinates: this.coverRings() };
  }

  /**
   * Validates a GeoJSON Polygon and normalises it: consecutive repeated
   * vertices are dropped, open rings are closed. Refused: fewer than 3
   * distinct vertices in a ring, coordinates out of range, an edge spanning
   * more than 180° of longitude, any two edges touching or crossing (within
   * a ring or between rings, so holes lie strictly inside the outer ring and
   * apart from each other), too many vertices or holes, too small or too
   * large an area.
   */
  static parse(value: unknown, field: string, limits: PolygonLimits, maxLatitude = MAX_FENCE_LATITUDE): Polygon {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new InvalidParamError(`${field} must be a GeoJSON Polygon object {"type": "Polygon", "coordinates": [[[lng, lat], …]]}`, field);
    }
    const { type, coordinates, ...rest } = value as Record<string, unknown>;
    const extra = Object.keys(rest).find((key) => key !== 'bbox');
    if (extra !== undefined) throw new InvalidParamError(`${field}.${extra} is not a GeoJSON Polygon member`, `${field}.${extra}`);
    if (type !== 'Polygon') throw new InvalidParamError(`${field}.type must be "Polygon"`, `${field}.type`);
    const where = `${field}.coordinates`;
    if (!Array.isArray(coordinates) || coordinates.length === 0) {
      throw new InvalidParamError(`${where} must be an array of rings: the outer ring, then any holes`, where);
    }
    if (coordinates.length - 1 > limits.maxHoles) throw new InvalidParamError(`a polygon has at most ${limits.maxHoles} holes`, where);
    let vertices = 0;
    const rings = coordinates.map((ring, r) => {
      const parsed = parseRing(ring, `${where}[${r}]`, maxLatitude);
      vertices += parsed.length / 2 - 1;
      if (vertices > limits.maxVertices) throw new InvalidParamError(`a polygon has at most ${limits.maxVertices} vertices in all its rings`, where);
      return parsed;
    });
    assertSimple(rings, where);
    for (let h = 1; h < rings.length; h++) {
      if (ringSide(rings[0], rings[h][0], rings[h][1]) !== Side.Inside) {
        throw new InvalidParamError(`${where}[${h}] is a hole and must lie inside the outer ring`, `${where}[${h}]`);
      }
      for (let other = 1; other < rings.length; other++) {
        if (other !== h && ringSide(rings[other], rings[h][0], rings[h][1]) !== Side.Outside) {
          throw new InvalidParamError(`holes must not lie inside each other (${where}[${h}] is inside ${where}[${other}])`, `${where}[${h}]`);
        }
      }
    }
    const polygon = new Polygon(rings);
    if (polygon.areaM2 < limits.minAreaM2) throw new InvalidParamError(`the polygon's area must be at least ${limits.minAreaM2} m²`, field);
    if (polygon.areaM2 > limits.maxAreaM2) {
      throw new InvalidParamError(`the polygon's area must be at most ${limits.maxAreaM2 / 1e6} km² (it is ${Math.round(polygon.areaM2 / 1e6)} km²)`, field);
    }
    return polygon;
  }
}

const enum Side {
  Outside = 0,
  Inside = 1,
  Boundary = 2,
}

/** Even-odd ray casting over a closed flat ring, with the boundary reported apart. */
function ringSide(ring: Float64Array, x: number, y: number): Side {
  let inside = false;
  for (let i = 0; i + 3 < ring.length; i += 2) {
    const xi = ring[i];
    const yi = ring[i + 1];
    const xj = ring[i + 2];
    const yj = ring[i + 3];
    if (
      x >= Math.min(xi, xj) - EDGE_TOLERANCE_DEG &&
      x <= Math.max(xi, xj) + EDGE_TOLERANCE_DEG &&
      y >= Math.min(yi, yj) - EDGE_TOLERANCE_DEG &&
      y <= Math.max(yi, yj) + EDGE_TOLERANCE_DEG
    ) {
      const cross = (xj - xi) * (y - yi) - (yj - yi) * (x - xi);
      if (Math.abs(cross) <= EDGE_TOLERANCE_DEG * Math.hypot(xj - xi, yj - yi)) return Side.Boundary;
    }
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside ? Side.Inside : Side.Outside;
}

function distanceToSegmentFromOrigin(ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const lengthSquared = dx * dx + dy * dy;
  const t = lengthSquared === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / lengthSquared));
  return Math.hypot(ax + t * dx, ay + t * dy);
}

/** Spherical ring area (Chamberlain & Duquette 2007, as in geojson-area), in m². */
function ringAreaM2(ring: Float64Array): number {
  const n = ring.length / 2 - 1;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const lower = i;
    const middle = (i + 1) % n;
    const upper = (i + 2) % n;
    total += (ring[upper * 2] * RAD - ring[lower * 2] * RAD) * Math.sin(ring[middle * 2 + 1] * RAD);
  }
  return Math.abs((total * EARTH_RADIUS_M * EARTH_RADIUS_M) / 2);
}

function parseRing(value: unknown, field: string, maxLatitude: number): Float64Array {
  if (!Array.isArray(value)) throw new InvalidParamError(`${field} must be an array of [lng, lat] positions`, field);
  const flat: number[] = [];
  value.forEach((position: unknown, index) => {
    const where = `${field}[${index}]`;
    if (!Array.isArray(position) || position.length < 2 || position.length > 3) {
      throw new InvalidParamError(`${where} must be a [lng, lat] position`, where);
    }
    const [lng, lat] = position as unknown[];
    if (typeof lng !== 'number' || !Number.isFinite(lng) || Math.abs(lng) > 180) {
      throw new InvalidParamError(`${where}[0] (longitude) must be a number between -180 and 180`, `${where}[0]`);
    }
    if (typeof lat !== 'number' || !Number.isFinite(lat) || Math.abs(lat) > maxLatitude) {
      throw new InvalidParamError(`${where}[1] (latitude) must be a number between -${maxLatitude} and ${maxLatitude}`, `${where}[1]`);
    }
    const last = flat.length - 2;
    if (last >= 0 && flat[last] === lng && flat[last + 1] === lat) return;
    if (last >= 0 && Math.abs(flat[last] - lng) > 180) {
      throw new InvalidParamError(`${where}: an edge may not span more than 180° of longitude (fences must not cross the antimeridian)`, where);
    }
    flat.push(lng, lat);
  });
  if (flat.length >= 4 && flat[0] === flat[flat.length - 2] && flat[1] === flat[flat.length - 1]) flat.length -= 2;
  if (flat.length < 6) throw new InvalidParamError(`${field} needs at least 3 distinct vertices`, field);
  if (Math.abs(flat[flat.length - 2] - flat[0]) > 180) {
    throw new InvalidParamError(`${field}: an edge may not span more than 180° of longitude (fences must not cross the antimeridian)`, field);
  }
  flat.push(flat[0], flat[1]);
  return Float64Array.from(flat);
}

/**
 * No two edges of any rings may meet, except consecutive edges of one ring at
 * their shared vertex (and those may not fold back along each other).
 * Quadratic in the vertex count, which the vertex limit bounds (1000 vertices:
 * about half a million bounding-box checks, a few milliseconds).
 */
function assertSimple(rings: readonly Float64Array[], field: string): void {
  const edges: Array<{ ring: number; index: number; count: number; ax: number; ay: number; bx: number; by: number }> = [];
  rings.forEach((ring, r) => {
    const count = ring.length / 2 - 1;
    for (let i = 0; i < count; i++) edges.push({ ring: r, index: i, count, ax: ring[i * 2], ay: ring[i * 2 + 1], bx: ring[i * 2 + 2], by: ring[i * 2 + 3] });
  });
  edges.sort((e, f) => Math.min(e.ax, e.bx) - Math.min(f.ax, f.bx));
  for (let i = 0; i < edges.length; i++) {
    const e = edges[i];
    const eMaxX = Math.max(e.ax, e.bx);
    for (let j = i + 1; j < edges.length; j++) {
      const f = edges[j];
      if (Math.min(f.ax, f.bx) > eMaxX) break;
      if (Math.max(e.ay, e.by) < Math.min(f.ay, f.by) || Math.max(f.ay, f.by) < Math.min(e.ay, e.by)) continue;
      const adjacent = e.ring === f.ring && ((e.index + 1) % e.count === f.index || (f.index + 1) % f.count === e.index);
      if (adjacent) {
        if (e.count === 3) continue; // a triangle's three edges are pairwise adjacent; a degenerate one has no area and fails the area check
        const [first, second] = (e.index + 1) % e.count === f.index ? [e, f] : [f, e];
        if (foldsBack(first, second)) throw selfIntersection(field, e.ring, f.ring);
        continue;
      }
      if (segmentsMeet(e.ax, e.ay, e.bx, e.by, f.ax, f.ay, f.bx, f.by)) throw selfIntersection(field, e.ring, f.ring);
    }
  }
}

function selfIntersection(field: string, ringA: number, ringB: number): InvalidParamError {
  return ringA === ringB
    ? new InvalidParamError(`${field}[${ringA}] crosses or touches itself`, `${field}[${ringA}]`)
    : new InvalidParamError(`${field}[${ringA}] and ${field}[${ringB}] cross or touch`, `${field}[${Math.max(ringA, ringB)}]`);
}

/** Consecutive edges a→b, b→c fold back when c lies on the line through a and b, on a's side of b. */
function foldsBack(first: { ax: number; ay: number; bx: number; by: number }, second: { bx: number; by: number }): boolean {
  const ux = first.bx - first.ax;
  const uy = first.by - first.ay;
  const vx = second.bx - first.bx;
  const vy = second.by - first.by;
  return ux * vy - uy * vx === 0 && ux * vx + uy * vy < 0;
}

function orientation(ax: number, ay: number, bx: number, by: number, cx: number, cy: number): number {
  return Math.sign((bx - ax) * (cy - ay) - (by - ay) * (cx - ax));
}

function onSegment(ax: number, ay: number, bx: number, by: number, px: number, py: number): boolean {
  return px >= Math.min(ax, bx) && px <= Math.max(ax, bx) && py >= Math.min(ay, by) && py <= Math.max(ay, by);
}

/** Whether closed segments ab and cd share any point (crossing, touching or overlapping). */
export function segmentsMeet(ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): boolean {
  const o1 = orientation(ax, ay, bx, by, cx, cy);
  const o2 = orientation(ax, ay, bx, by, dx, dy);
  const o3 = orientation(cx, cy, dx, dy, ax, ay);
  const o4 = orientation(cx, cy, dx, dy, bx, by);
  if (o1 !== o2 && o3 !== o4) return true;
  if (o1 === 0 && onSegment(ax, ay, bx, by, cx, cy)) return true;
  if (o2 === 0 && onSegment(ax, ay, bx, by, dx, dy)) return true;
  if (o3 === 0 && onSegment(cx, cy, dx, dy, ax, ay)) return true;
  if (o4 === 0 && onSegment(cx, cy, dx, dy, bx, by)) return true;
  return false;
}
