import { InvalidParamError } from '../errors.js';

/** A rectangle in decimal degrees; east > west (a box across the antimeridian is asked as two). */
export interface Bbox {
  north: number;
  south: number;
  east: number;
  west: number;
}

/** Deprecated order, said in the answer when a bbox was read in it (docs/adr/0036). */
export const LEGACY_BBOX_WARNING =
  'bbox was read as minLng,minLat,maxLng,maxLat, an order that is deprecated here: send north,south,east,west, the order of every bbox of this API';

/**
 * `bbox=north,south,east,west`, interface.md's order for every bbox of the API
 * (docs/adr/0036). With `legacyLngLat`, a box that cannot be read that way
 * (north below south, or east below west) but reads as the GeoJSON order
 * `minLng,minLat,maxLng,maxLat` is taken in that order and `legacy` is true,
 * so an old client keeps working and is told: GET /v2/precipitation-forecast
 * and GET /v2/weather/alerts took that order before. A box valid both ways is
 * always read the interface's way; over Ghana none is (its longitudes are all
 * below its latitudes, so a legacy box has "north" < "south").
 */
export function parseBbox(text: unknown, options: { maxDegrees?: number; legacyLngLat?: boolean } = {}): { box: Bbox; legacy: boolean } {
  const parts = typeof text === 'string' ? text.split(',').map((part) => (part.trim() === '' ? NaN : Number(part))) : [];
  if (parts.length !== 4 || parts.some((part) => !Number.isFinite(part))) throw new InvalidParamError('bbox must be north,south,east,west in decimal degrees, e.g. 5.7,5.5,-0.1,-0.3', 'bbox');
  const [a, b, c, d] = parts;
  let box: Bbox = { north: a, south: b, east: c, west: d };
  let legacy = false;
  const valid = (candidate: Bbox) => candidate.north > candidate.south && candidate.east > candidate.west;
  if (!valid(box) && options.legacyLngLat) {
    const lngLat: Bbox = { west: a, south: b, east: c, north: d };
    if (valid(lngLat) && inRange(lngLat)) [box, legacy] = [lngLat, true];
  }
  if (!inRange(box)) throw new InvalidParamError('bbox is north,south,east,west: latitudes in [-90, 90], longitudes in [-180, 180]', 'bbox');
  if (!(box.north > box.south)) throw new InvalidParamError('bbox is north,south,east,west: north must be greater than south', 'bbox');
  if (!(box.east > box.west)) throw new InvalidParamError('bbox is north,south,east,west: east must be greater than west (a box across the antimeridian is asked as two)', 'bbox');
  if (options.maxDegrees !== undefined && (box.north - box.south > options.maxDegrees || box.east - box.west > options.maxDegrees)) {
    throw new InvalidParamError(`bbox may span at most ${options.maxDegrees}° each way`, 'bbox');
  }
  return { box, legacy };
}

function inRange(box: Bbox): boolean {
  return [box.north, box.south].every((lat) => lat >= -90 && lat <= 90) && [box.east, box.west].every((lng) => lng >= -180 && lng <= 180);
}
