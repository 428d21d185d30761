import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../../platform/src/index.js';
import { landmarkList, MAKOLA, OSM_ATTRIBUTION } from '../answer-parts.js';

/** GET /v2/landmarks/geocode: `bbox` or `near` + `radius_m`, as asked (ADR 39). */
export const GeocodeLandmarksAnswerSchema = defineAnswer(
  'GeocodeLandmarksAnswer',
  Type.Union([
    landmarkList({ bbox: Type.Object({ north: Type.Number(), south: Type.Number(), east: Type.Number(), west: Type.Number() }) }),
    landmarkList({ near: Type.Object({ lat: Type.Number(), lng: Type.Number() }), radius_m: Type.Number() }),
  ]),
  {
    near: { lat: 5.5502, lng: -0.2174 },
    radius_m: 500,
    items: [
      {
        ...MAKOLA,
        provenance: { source: 'third_party_match', provider: 'OpenStreetMap', accuracy_meters: 10, confidence: 0.8, verified_at: '2026-11-01T06:00:00.000Z' },
      },
    ],
    next_cursor: null,
    attribution: OSM_ATTRIBUTION,
  },
);
