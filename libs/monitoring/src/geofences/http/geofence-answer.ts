import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';
import { FENCE_TYPES } from '../domain/geofence.js';

const LatLng = Type.Object({ lat: Type.Number(), lng: Type.Number() });

export const GeoJsonPolygonSchema = Type.Object(
  {
    type: Type.Literal('Polygon'),
    coordinates: Type.Array(Type.Array(Type.Array(Type.Number(), { minItems: 2, maxItems: 2 })), { description: 'The outer ring, then holes; rings of [lng, lat], closed' }),
  },
  { description: 'GeoJSON Polygon (RFC 7946 §3.1.6)' },
);

/** A geofence as every geofence answer shows it (ADR 39). */
export const GeofenceSchema = Type.Object({
  id: Type.String(),
  fence_type: Type.Union(FENCE_TYPES.map((type) => Type.Literal(type))),
  name: Nullable(Type.String()),
  customer_id: Nullable(Type.String({ description: 'null: the fence applies to every customer of the account' })),
  loan_id: Nullable(Type.String()),
  center: Nullable(LatLng),
  radius_m: Nullable(Type.Number()),
  polygon: Nullable(GeoJsonPolygonSchema),
  isochrone: Type.Optional(
    Type.Object(
      {
        minutes: Type.Number(),
        mode: Type.String({ description: 'The routing mode, canonical (`okada` is stored as `motor_scooter`)' }),
        snapped: LatLng,
        h3_resolution: Type.Integer(),
      },
      { description: 'Isochrone fences only: how the area was made' },
    ),
  ),
  area_m2: Type.Number(),
  h3_resolution: Type.Integer({ description: 'The finest resolution of the cells that index the fence' }),
  cell_count: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
});

export const geofenceExample = {
  id: 'gf_6d1f0b9e2c8a4f7d9b3e5a1c7f2d4b8e',
  fence_type: 'circle' as const,
  name: 'Makola branch, collections zone',
  customer_id: null,
  loan_id: null,
  center: { lat: 5.5489, lng: -0.2101 },
  radius_m: 500,
  polygon: null,
  area_m2: 785398,
  h3_resolution: 10,
  cell_count: 61,
  created_at: '2026-11-27T09:00:00.000Z',
};

/** POST /v2/geofence/create and GET /v2/geofences/{id} (ADR 39): one answer, shared by both slices. */
export const GeofenceAnswerSchema = defineAnswer('Geofence', GeofenceSchema, geofenceExample);
