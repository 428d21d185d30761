/**
 * Geodesy for every context, once: WGS 84 degrees on a sphere.
 *
 * One radius, H3's authalic Earth radius (6,371.007180918475 km), and one
 * great-circle function, H3's haversine (`greatCircleDistance(a, b, 'm')` of
 * h3-js) with its operations in the same order, so a distance here is the very
 * same double h3-js returns (geodesy.spec.ts compares them bit for bit).
 * Addressing's provenance radius and reverse distance and identity's signed
 * proximity statements were computed with H3 and round to the decimetre or up
 * to the metre, where a last-bit difference could move a figure; the other
 * users (ranking, routing, fences, hazards) used 6,371,008.8 m, 0.25 ppm away
 * (2.5 mm in 10 km), which nothing they show over HTTP can tell apart.
 *
 * Pure functions only (no Nest, no I/O): domain folders may import this file.
 */

/** H3's EARTH_RADIUS_KM (h3/src/h3lib/include/constants.h). */
const EARTH_RADIUS_KM = 6371.007180918475;
export const EARTH_RADIUS_M = EARTH_RADIUS_KM * 1e3;
/** Degrees to radians. */
export const RAD = Math.PI / 180;

export interface LatLng {
  lat: number;
  lng: number;
}

/**
 * A floor under `greatCircleM` for points near each other, with no
 * trigonometry: nearest-point searches measure with it first and skip a
 * candidate whose floor already exceeds the distance they keep, so only the
 * few that can win pay for the haversine (and the answer is the same).
 *
 * `cosPole` is the cosine of a latitude at least as far from the equator as
 * either point (callers take their query's latitude plus its radius: a
 * candidate beyond that is farther than the radius anyway, as its latitude
 * alone shows). Why it holds: the haversine gives sin²(d/2) = sin²(Δφ/2) +
 * cos φ1·cos φ2·sin²(Δλ/2) ≥ sin²(Δφ/2) + cos²φmax·sin²(Δλ/2); asin y ≥ y;
 * and sin x ≥ 0.99999·x for |x| ≤ 0.005 rad (the bound applies below 0.01
 * rad, ~64 km, and falls back to the latitude difference alone beyond it,
 * which a great circle can never be shorter than). 0.9999 leaves room for
 * rounding.
 */
export function greatCircleFloorM(lat1: number, lng1: number, lat2: number, lng2: number, cosPole: number): number {
  const dLat = Math.abs(lat2 - lat1) * RAD;
  let dLngDeg = Math.abs(lng2 - lng1);
  if (dLngDeg > 180) dLngDeg = 360 - dLngDeg;
  const dLng = dLngDeg * RAD;
  if (dLat >= 0.01 || dLng >= 0.01) return dLat * EARTH_RADIUS_M * 0.9999;
  return EARTH_RADIUS_M * Math.sqrt(0.9999 * (dLat * dLat + cosPole * cosPole * dLng * dLng));
}

/** The `cosPole` of `greatCircleFloorM` for searches within `radiusM` of a point at `lat`. */
export function cosPoleWithin(lat: number, radiusM: number): number {
  const reach = Math.min(90, Math.abs(lat) + (radiusM / EARTH_RADIUS_M / RAD) * 1.01 + 1e-9);
  return Math.max(0, Math.cos(reach * RAD));
}

/** Great-circle metres between two points: h3-js's `greatCircleDistance(…, 'm')`, bit for bit, without its heap allocations. */
export function greatCircleM(lat1: number, lng1: number, lat2: number, lng2: number): number {
  // h3-js stores each coordinate as `degrees * Math.PI / 180` (degsToRads).
  const aLat = (lat1 * Math.PI) / 180;
  const aLng = (lng1 * Math.PI) / 180;
  const bLat = (lat2 * Math.PI) / 180;
  const bLng = (lng2 * Math.PI) / 180;
  // H3 (latLng.c, greatCircleDistanceRads), as h3-js compiles it: A = sinLat² + sinLng·(cos b·cos a·sinLng).
  const sinLat = Math.sin((bLat - aLat) * 0.5);
  const sinLng = Math.sin((bLng - aLng) * 0.5);
  const A = sinLat * sinLat + sinLng * (Math.cos(bLat) * Math.cos(aLat) * sinLng);
  return Math.atan2(Math.sqrt(A), Math.sqrt(1.0 - A)) * 2.0 * EARTH_RADIUS_KM * 1.0e3;
}

/** Initial bearing from the first point to the second, whole degrees clockwise from north, 0–359. */
export function bearing(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const φ1 = lat1 * RAD;
  const φ2 = lat2 * RAD;
  const Δλ = (lng2 - lng1) * RAD;
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  return (Math.round((Math.atan2(y, x) / RAD) % 360) + 360) % 360;
}

/** The point `distanceM` from (lat, lng) along the initial bearing `bearingDeg` on the sphere. */
export function destination(lat: number, lng: number, bearingDeg: number, distanceM: number): LatLng {
  const delta = distanceM / EARTH_RADIUS_M;
  const theta = bearingDeg * RAD;
  const phi1 = lat * RAD;
  const phi2 = Math.asin(Math.sin(phi1) * Math.cos(delta) + Math.cos(phi1) * Math.sin(delta) * Math.cos(theta));
  const lambda2 = lng * RAD + Math.atan2(Math.sin(theta) * Math.sin(delta) * Math.cos(phi1), Math.cos(delta) - Math.sin(phi1) * Math.sin(phi2));
  return { lat: phi2 / RAD, lng: lambda2 / RAD };
}

/**
 * The point of segment a–b nearest to p, in a local equirectangular frame
 * (exact enough for segments of a few kilometres): fraction t along a–b and
 * the distance in metres.
 */
export function projectOnSegment(pLat: number, pLng: number, aLat: number, aLng: number, bLat: number, bLng: number): { t: number; distanceM: number; lat: number; lng: number } {
  const kx = Math.cos(pLat * RAD) * RAD * EARTH_RADIUS_M;
  const ky = RAD * EARTH_RADIUS_M;
  const ax = (aLng - pLng) * kx;
  const ay = (aLat - pLat) * ky;
  const bx = (bLng - pLng) * kx;
  const by = (bLat - pLat) * ky;
  const dx = bx - ax;
  const dy = by - ay;
  const length2 = dx * dx + dy * dy;
  let t = length2 === 0 ? 0 : -(ax * dx + ay * dy) / length2;
  t = Math.max(0, Math.min(1, t));
  const x = ax + t * dx;
  const y = ay + t * dy;
  return { t, distanceM: Math.sqrt(x * x + y * y), lat: aLat + t * (bLat - aLat), lng: aLng + t * (bLng - aLng) };
}

/** Which side of the directed segment a→b the point p lies on: positive left, negative right. */
export function sideOf(pLat: number, pLng: number, aLat: number, aLng: number, bLat: number, bLng: number): number {
  const k = Math.cos(aLat * RAD);
  return (bLng - aLng) * k * (pLat - aLat) - (bLat - aLat) * (pLng - aLng) * k;
}

/** A finite number of degrees in [-90, 90]. */
export function isLatitude(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= -90 && value <= 90;
}

/** A finite number of degrees in [-180, 180]. */
export function isLongitude(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= -180 && value <= 180;
}

/** Both of the above: a point anywhere on Earth (no antimeridian wrapping: 180.5 is refused, not folded). */
export function isCoordinate(lat: unknown, lng: unknown): boolean {
  return isLatitude(lat) && isLongitude(lng);
}
