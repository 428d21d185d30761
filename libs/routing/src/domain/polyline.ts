/**
 * Google's encoded polyline algorithm (developers.google.com/maps/documentation/utilities/polylinealgorithm),
 * which OSRM, Valhalla and GraphHopper answer too: precision 5 by default, 6 for `polyline6`.
 * Coordinates in and out are [lng, lat] (GeoJSON order); the encoding itself is lat first.
 */
export function encodePolyline(coordinates: ReadonlyArray<readonly [number, number]>, precision = 5): string {
  const factor = 10 ** precision;
  let lastLat = 0;
  let lastLng = 0;
  let out = '';
  for (const [lng, lat] of coordinates) {
    const iLat = Math.round(lat * factor);
    const iLng = Math.round(lng * factor);
    out += encodeSigned(iLat - lastLat) + encodeSigned(iLng - lastLng);
    lastLat = iLat;
    lastLng = iLng;
  }
  return out;
}

function encodeSigned(value: number): string {
  let rest = value < 0 ? ~(value << 1) : value << 1;
  let out = '';
  while (rest >= 0x20) {
    out += String.fromCharCode((0x20 | (rest & 0x1f)) + 63);
    rest >>>= 5;
  }
  return out + String.fromCharCode(rest + 63);
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
