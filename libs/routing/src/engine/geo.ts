/** Small spherical helpers (WGS 84 taken as a sphere of radius 6,371,008.8 m; error < 0.5 % at city scale). */
export const EARTH_RADIUS_M = 6_371_008.8;
export const RAD = Math.PI / 180;

export function haversineM(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLng = (lng2 - lng1) * RAD;
  const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}

/** Initial bearing from the first point to the second, degrees clockwise from north, 0–359. */
export function bearing(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const φ1 = lat1 * RAD;
  const φ2 = lat2 * RAD;
  const Δλ = (lng2 - lng1) * RAD;
  const y = Math.sin(Δλ) * Math.cos(φ2);
  const x = Math.cos(φ1) * Math.sin(φ2) - Math.sin(φ1) * Math.cos(φ2) * Math.cos(Δλ);
  return (Math.round((Math.atan2(y, x) / RAD) % 360) + 360) % 360;
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
