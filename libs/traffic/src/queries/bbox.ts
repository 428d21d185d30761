import { InvalidParamError } from '../../../platform/src/index.js';

export interface Box {
  north: number;
  south: number;
  east: number;
  west: number;
}

/** `north,south,east,west` (interface.md's order), as elsewhere. */
export function parseBox(text: unknown, maxDegrees: number): Box {
  if (typeof text !== 'string') throw new InvalidParamError('bbox must be "north,south,east,west"', 'bbox');
  const parts = text.split(',').map(Number);
  const [north, south, east, west] = parts;
  if (parts.length !== 4 || !(north >= -90 && north <= 90 && south >= -90 && south <= 90 && north > south)) throw new InvalidParamError('bbox is north,south,east,west with north > south, latitudes in [-90, 90]', 'bbox');
  if (!(east >= -180 && east <= 180 && west >= -180 && west <= 180 && east > west)) throw new InvalidParamError('bbox is north,south,east,west with east > west, longitudes in [-180, 180]', 'bbox');
  if (north - south > maxDegrees || east - west > maxDegrees) throw new InvalidParamError(`bbox may span at most ${maxDegrees}° each way`, 'bbox');
  return { north, south, east, west };
}

export function inBox(box: Box, lat: number, lng: number): boolean {
  return lat <= box.north && lat >= box.south && lng <= box.east && lng >= box.west;
}
