import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { Nullable, ProvenanceSchema, ReverseAddressSchema } from '../../public/answer-parts.js';

/** GET /v2/reverse (ADR 39: the schema beside its slice). */
export const ReverseAnswerSchema = defineAnswer(
  'ReverseAnswer',
  Type.Object({
    code: Type.String({ description: 'The hex code of the cell' }),
    display: Type.String({ description: 'The code grouped for people' }),
    resolution: Type.Integer(),
    cell: Type.String({ description: 'The H3 cell index' }),
    lat: Type.Number(),
    lng: Type.Number(),
    distance_m: Type.Number({ description: 'From the point sent to the cell centre' }),
    provenance: ProvenanceSchema,
    address: Nullable(ReverseAddressSchema),
  }),
  {
    code: '0QPPANVTWH',
    display: '0QP-PAN-VTWH',
    resolution: 12,
    cell: '8c7576951745dff',
    lat: 5.550274293774784,
    lng: -0.21740539924056956,
    distance_m: 3.1,
    provenance: { source: 'device_gps', provider: 'caller', accuracy_meters: 8, confidence: 0.68, verified_at: '2026-11-27T09:00:00.000Z' },
    address: {
      country: { code: 'GH', name: 'Ghana' },
      region: { name: 'Greater Accra', dataset: 'boundaries', distance_m: 0 },
      district: { name: 'Accra Metropolis', dataset: 'boundaries', distance_m: 0 },
      locality: { name: 'Accra Central', dataset: 'places/osm', distance_m: 412, kind: 'suburb', lat: 5.5486, lng: -0.2119 },
      road: { name: 'Kojo Thompson Road', ref: null, dataset: 'roads', distance_m: 24 },
      landmark: { name: 'Makola Market', dataset: 'landmarks', distance_m: 180, kind: 'market', slug: 'makola-market', lat: 5.5489, lng: -0.2101 },
      formatted: 'near Makola Market, Accra Central, Accra Metropolis, Greater Accra',
      datasets: [{ dataset: 'places/osm', version: '2026-11-01', imported_at: '2026-11-01T06:00:00.000Z' }],
    },
  },
);
