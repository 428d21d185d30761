import { Type } from '@sinclair/typebox';
import { ProvenanceSchema } from '../../../../addressing/src/index.js';
import { Nullable } from '../../../../platform/src/index.js';

/** Schema parts the landmark answers share (ADR 39). */

export const NarrationStatusSchema = Type.Union([Type.Literal('candidate'), Type.Literal('excluded_pending_review'), Type.Literal('excluded')], {
  description: 'Whether route narration may use it: excluded after corroborated wrong-landmark reports (pending review) or by an operator',
});

/** One landmark of a list (public/landmarks.ts, `view`). */
export const LandmarkItemSchema = Type.Object({
  slug: Type.String({ description: 'Names the landmark in POST /v2/landmarks/{slug}/report' }),
  name: Type.String(),
  kind: Type.String({ description: 'market, place_of_worship, school, fuel, bank, hotel, …' }),
  feature: Type.String({ description: "The source's own classification (`amenity=marketplace`)" }),
  lat: Type.Number(),
  lng: Type.Number(),
  hex_code: Type.String(),
  distance_m: Type.Number(),
  phone: Nullable(Type.String()),
  website: Nullable(Type.String()),
  opening_hours: Nullable(Type.String({ description: 'OSM opening_hours syntax' })),
  photo_url: Nullable(Type.String({ description: 'Only where the source names a photo' })),
  region: Nullable(Type.String()),
  district: Nullable(Type.String()),
  narration_status: NarrationStatusSchema,
  source: Type.Union([Type.Literal('osm'), Type.Literal('geonames')]),
  provenance: Type.Optional(ProvenanceSchema),
});

const listFields = {
  items: Type.Array(LandmarkItemSchema, { description: 'Nearest first' }),
  next_cursor: Nullable(Type.String()),
  attribution: Type.Array(Type.String()),
};

/** `items`, `next_cursor`, `attribution` beside what each answer says of its area. */
export const landmarkList = <P extends Parameters<typeof Type.Object>[0]>(properties: P) => Type.Object({ ...properties, ...listFields });

export const MAKOLA = {
  slug: 'makola-market',
  name: 'Makola Market',
  kind: 'market',
  feature: 'amenity=marketplace',
  lat: 5.5489,
  lng: -0.2101,
  hex_code: 'GA4K7M2QX',
  distance_m: 182.4,
  phone: null,
  website: null,
  opening_hours: 'Mo-Sa 06:00-18:00',
  photo_url: null,
  region: 'Greater Accra',
  district: 'Accra Metropolis',
  narration_status: 'candidate' as const,
  source: 'osm' as const,
};
export const OSM_ATTRIBUTION = ['© OpenStreetMap contributors'];
