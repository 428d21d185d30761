import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { ProvenanceSchema } from '../../public/answer-parts.js';

/** GET /v2/lookup (ADR 39). */
export const LookupAnswerSchema = defineAnswer(
  'LookupAnswer',
  Type.Object({
    code: Type.String({ description: 'The code in its compact canonical form' }),
    display: Type.String({ description: 'The code grouped for people' }),
    resolution: Type.Integer({ description: 'The H3 resolution the code encodes' }),
    cell: Type.String({ description: 'The H3 cell index' }),
    lat: Type.Number({ description: 'The centre of the cell' }),
    lng: Type.Number(),
    provenance: ProvenanceSchema,
  }),
  {
    code: '0QPPANVTWH',
    display: '0QP-PAN-VTWH',
    resolution: 12,
    cell: '8c7576951745dff',
    lat: 5.550274293774784,
    lng: -0.21740539924056956,
    provenance: { source: 'geocoded_text', provider: 'hexcode-v1 (H3 v4 cell centre)', accuracy_meters: 10.7, confidence: 0.5, verified_at: '2026-11-22T00:00:00.000Z' },
  },
);
