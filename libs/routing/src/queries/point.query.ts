import { InvalidParamError } from '../../../platform/src/index.js';
import type { LatLng } from '../routing-engine.port.js';

/** A `lat,lng` query value (GET /v2/route/static?from=5.55,-0.21): 400 INVALID_PARAM naming the field otherwise. */
export function parseLatLngParam(value: unknown, field: string): LatLng {
  if (typeof value !== 'string' || value.length > 60) throw new InvalidParamError(`${field} must be "lat,lng" in decimal degrees`, field);
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/.exec(value);
  const lat = match ? Number(match[1]) : NaN;
  const lng = match ? Number(match[2]) : NaN;
  if (!(Math.abs(lat) <= 90) || !(Math.abs(lng) <= 180)) throw new InvalidParamError(`${field} must be "lat,lng" in decimal degrees (lat −90..90, lng −180..180)`, field);
  return { lat, lng };
}
