/**
 * Google's encoded polyline algorithm (developers.google.com/maps/documentation/utilities/polylinealgorithm),
 * which OSRM, Valhalla and GraphHopper answer too: precision 5 by default, 6 for `polyline6`.
 * Coordinates in and out are [lng, lat] (GeoJSON order); the encoding itself is lat first.
 */
export function encodePolyline(coordinates: ReadonlyArray<readonly [number, number]>, precision = 5): string {
  const factor = 10 ** precision;
  let lastLat = 0;
  let lastLng = 0;
  // Character codes collected, turned into a string once: no string per number.
  const codes: number[] = [];
  for (const [lng, lat] of coordinates) {
    const iLat = Math.round(lat * factor);
    const iLng = Math.round(lng * factor);
    pushSigned(codes, iLat - lastLat);
    pushSigned(codes, iLng - lastLng);
    lastLat = iLat;
    lastLng = iLng;
  }
  let out = '';
  for (let i = 0; i < codes.length; i += 8192) out += String.fromCharCode(...codes.slice(i, i + 8192));
  return out;
}

function pushSigned(codes: number[], value: number): void {
  let rest = value < 0 ? ~(value << 1) : value << 1;
  while (rest >= 0x20) {
    codes.push((0x20 | (rest & 0x1f)) + 63);
    rest >>>= 5;
  }
  codes.push(rest + 63);
}

export class PolylineError extends Error {}

/** Decodes to [lng, lat] pairs; a malformed string throws PolylineError. */
export function decodePolyline(text: string, precision = 5, maxPoints = 10_000): Array<[number, number]> {
  const factor = 10 ** precision;
  const points: Array<[number, number]> = [];
  let index = 0;
  let lat = 0;
  let lng = 0;
  const next = () => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (index >= text.length) throw new PolylineError('the polyline ends in the middle of a number');
      const byte = text.charCodeAt(index++) - 63;
      if (byte < 0 || byte > 63) throw new PolylineError(`invalid character at ${index - 1}`);
      result |= (byte & 0x1f) << shift;
      shift += 5;
      if (byte < 0x20) break;
      if (shift > 30) throw new PolylineError('a number too long for a coordinate');
    }
    return result & 1 ? ~(result >> 1) : result >> 1;
  };
  while (index < text.length) {
    lat += next();
    lng += next();
    if (points.length >= maxPoints) throw new PolylineError(`more than ${maxPoints} points`);
    const point: [number, number] = [lng / factor, lat / factor];
    if (Math.abs(point[1]) > 90 || Math.abs(point[0]) > 180) throw new PolylineError('a coordinate out of range');
    points.push(point);
  }
  return points;
}
