import type { ApiPropertyOptions } from '@nestjs/swagger';

/** OpenAPI shapes of the geometry fields, which the domain validates (domain/geometry.ts) rather than class-validator. */
export const POINT_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  required: ['lat', 'lng'],
  properties: {
    lat: { type: 'number', minimum: -85, maximum: 85, example: 5.6037 },
    lng: { type: 'number', minimum: -180, maximum: 180, example: -0.187 },
  },
};

export const GEOJSON_POLYGON_SCHEMA: ApiPropertyOptions = {
  type: 'object',
  required: ['type', 'coordinates'],
  description:
    'A GeoJSON Polygon (RFC 7946 §3.1.6): the outer ring, then holes, each a list of [lng, lat] positions. Rings may be open (they are closed for you); ' +
    'consecutive repeated positions are dropped; each ring needs 3 distinct vertices; no edge may cross or touch another (holes lie strictly inside the outer ring and apart); ' +
    'at most 1000 vertices and 20 holes; latitudes within ±85; no edge spans more than 180° of longitude (no antimeridian crossing). Edges are straight lines in longitude/latitude.',
  properties: {
    type: { type: 'string', enum: ['Polygon'] },
    coordinates: { type: 'array', items: { type: 'array', items: { type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 3 } } },
  },
  example: {
    type: 'Polygon',
    coordinates: [
      [
        [-0.2, 5.55],
        [-0.15, 5.55],
        [-0.15, 5.6],
        [-0.2, 5.6],
        [-0.2, 5.55],
      ],
    ],
  },
};
