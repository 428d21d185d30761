import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../../platform/src/index.js';
import { landmarkList, MAKOLA, OSM_ATTRIBUTION } from '../answer-parts.js';

/** GET /v2/hexcode/{code}/landmarks (ADR 39). */
export const HexcodeLandmarksAnswerSchema = defineAnswer(
  'HexcodeLandmarksAnswer',
  landmarkList({
    code: Type.String({ description: 'The code, compact' }),
    display: Type.String({ description: 'The code grouped for people' }),
    resolution: Type.Integer(),
    lat: Type.Number({ description: 'The cell centre' }),
    lng: Type.Number(),
    scope: Type.Union([Type.Literal('nearby'), Type.Literal('cell')], { description: 'nearby: within `radius_m` of the centre (address-sized cells); cell: inside the cell' }),
    radius_m: Nullable(Type.Number({ description: 'nearby: the search radius; cell: the centre-to-corner distance of the cell' })),
  }),
  { code: 'GA4K7M2QX', display: 'GA4K-7M2-QX', resolution: 12, lat: 5.5502, lng: -0.2174, scope: 'nearby', radius_m: 250, items: [MAKOLA], next_cursor: null, attribution: OSM_ATTRIBUTION },
);
