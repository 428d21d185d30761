/**
 * H3's great-circle distance in metres (`greatCircleDistance(a, b, 'm')` of
 * h3-js), computed here without h3-js's two heap allocations per call: the
 * same degree-to-radian conversion, the same haversine with its operations in
 * the same order, and the same authalic radius, so the result is the very
 * same double (great-circle.spec.ts compares the two bit for bit). Answers
 * round distances up or to the decimetre; a last-bit difference could move a
 * figure, so exactness matters more than the formula.
 */
const EARTH_RADIUS_KM = 6371.007180918475;

export function greatCircleMetres(lat1: number, lng1: number, lat2: number, lng2: number): number {
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
