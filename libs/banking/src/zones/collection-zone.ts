import { cellToBoundary, cellToLatLng, getResolution, latLngToCell } from 'h3-js';
import { displayHexCode, parseHexCode } from '../../../addressing/src/index.js';
import { parseFenceGeometry, shapeOf, type Shape } from '../../../monitoring/src/index.js';
import { intendedProperty, InvalidParamError } from '../../../platform/src/index.js';
import type { CollectionZone } from '../domain/loan.js';

/**
 * Collection zones as the API takes them (`zone` of POST
 * /v2/collections/register), validated by the same rules as geofences
 * (monitoring's fence geometry: a radius of 10 m to 50 km; a polygon of at
 * most 1000 vertices, 100 m² to 10,000 km², no self-crossing):
 *
 * - `{"type": "point", "lat", "lng", "radius_m"}`
 * - `{"type": "hex", "code"}`: an address hex code (any resolution); the zone is its H3 cell
 * - `{"type": "polygon", "polygon": <GeoJSON Polygon>}`
 *
 * `type` may be left out where the fields say it (inferZoneType).
 */
export const ZONE_TYPES = ['point', 'hex', 'polygon'] as const;

export function parseCollectionZone(raw: unknown, field = 'zone'): { zone: CollectionZone; anchor: { lat: number; lng: number } } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new InvalidParamError(`${field} must be an object with type point, hex or polygon`, field);
  const input = inferZoneType(raw as Record<string, unknown>);
  const allow = (...fields: string[]) => {
    const extra = Object.keys(input).find((key) => key !== 'type' && !fields.includes(key));
    if (extra === undefined) return;
    const use = intendedProperty(extra, fields);
    throw new InvalidParamError(`${field}.${extra} does not apply to a ${String(input.type)} zone${use ? ` (use ${use})` : ''}; accepted: type, ${fields.join(', ')}`, `${field}.${extra}`);
  };
  const named = (error: unknown): never => {
    if (error instanceof InvalidParamError) throw new InvalidParamError(error.message, `${field}.${error.field ?? 'type'}`);
    throw error;
  };
  switch (input.type) {
    case 'point': {
      allow('lat', 'lng', 'radius_m');
      try {
        const geometry = parseFenceGeometry({ fence_type: 'circle', center: { lat: input.lat, lng: input.lng }, radius_m: input.radius_m });
        if (geometry.fence_type !== 'circle') throw new Error('a circle parsed as something else');
        return { zone: { type: 'point', lat: geometry.center.lat, lng: geometry.center.lng, radius_m: geometry.radius_m }, anchor: geometry.center };
      } catch (error) {
        // The fence rules name `center`; the zone has lat and lng at its top level.
        if (error instanceof InvalidParamError && error.field?.startsWith('center')) {
          throw new InvalidParamError(error.message.replace(/center\.?/, ''), `${field}.${error.field === 'center' ? 'lat' : error.field.slice('center.'.length)}`);
        }
        return named(error);
      }
    }
    case 'hex': {
      allow('code');
      if (typeof input.code !== 'string') throw new InvalidParamError(`${field}.code must be a hex code`, `${field}.code`);
      // A bad code is 400 INVALID_CODE naming the field, with suggestions (as GET /v2/lookup).
      const parsed = parseHexCode(input.code, `${field}.code`);
      const [lat, lng] = cellToLatLng(parsed.cell);
      return { zone: { type: 'hex', code: displayHexCode(parsed.code), h3_cell: parsed.cell }, anchor: { lat, lng } };
    }
    case 'polygon': {
      allow('polygon');
      try {
        const geometry = parseFenceGeometry({ fence_type: 'polygon', polygon: input.polygon });
        if (geometry.fence_type !== 'polygon') throw new Error('a polygon parsed as something else');
        const outer = geometry.polygon.coordinates[0].slice(0, -1);
        const anchor = { lat: outer.reduce((sum, [, lat]) => sum + lat, 0) / outer.length, lng: outer.reduce((sum, [lng]) => sum + lng, 0) / outer.length };
        return { zone: { type: 'polygon', polygon: geometry.polygon }, anchor };
      } catch (error) {
        return named(error);
      }
    }
    default:
      throw new InvalidParamError(
        `${field}.type must be one of ${ZONE_TYPES.join(', ')}: a circle is {lat, lng, radius_m}, a hex {code}, a polygon {polygon: <GeoJSON Polygon>} (type may be left out)`,
        `${field}.type`,
      );
  }
}

/**
 * A zone without `type` takes the one its fields name (docs/adr/0036): the
 * circle `{lat, lng, radius_m}` is how every geofencing API writes it, so it
 * is not refused for lacking a word that adds nothing; `{code}` is a hex zone
 * and `{polygon}` a polygon. A bare GeoJSON Polygon is a polygon zone too.
 */
function inferZoneType(input: Record<string, unknown>): Record<string, unknown> {
  if (input.type === 'Polygon' && Array.isArray(input.coordinates)) return { type: 'polygon', polygon: input };
  if (input.type !== undefined) return input;
  if ('radius_m' in input || ('lat' in input && 'lng' in input)) return { type: 'point', ...input };
  if ('code' in input) return { type: 'hex', ...input };
  if ('polygon' in input) return { type: 'polygon', ...input };
  return input;
}

/** Where a point stands against a zone: inside (boundary included) and metres to the boundary (0 inside). */
export interface ZoneRelation {
  inside: boolean;
  distance_m: number;
}

/** A stored zone as something to test points against. */
export class ZoneShape {
  private readonly shape: Shape;
  private readonly cell: string | null;
  private readonly resolution: number;

  constructor(zone: CollectionZone) {
    switch (zone.type) {
      case 'point':
        this.shape = shapeOf({ fence_type: 'circle', center: { lat: zone.lat, lng: zone.lng }, radius_m: zone.radius_m, polygon: null });
        this.cell = null;
        break;
      case 'hex': {
        const ring = cellToBoundary(zone.h3_cell, true);
        this.shape = shapeOf({ fence_type: 'polygon', center: null, radius_m: null, polygon: { type: 'Polygon', coordinates: [ring] } });
        this.cell = zone.h3_cell;
        break;
      }
      case 'polygon':
        this.shape = shapeOf({ fence_type: 'polygon', center: null, radius_m: null, polygon: zone.polygon });
        this.cell = null;
        break;
      default: {
        const _exhaustive: never = zone;
        throw new Error(`unknown zone ${JSON.stringify(_exhaustive)}`);
      }
    }
    this.resolution = this.cell ? getResolution(this.cell) : -1;
  }

  relate(lat: number, lng: number): ZoneRelation {
    // A hex zone is exactly its H3 cell (H3's edges are great-circle arcs; the polygon only measures distance).
    const inside = this.cell ? latLngToCell(lat, lng, this.resolution) === this.cell : this.shape.contains(lat, lng);
    return { inside, distance_m: inside ? 0 : Math.max(0, Math.round(this.shape.signedDistanceM(lat, lng))) };
  }
}
