import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { Nullable, ProvenanceSchema, ReverseAddressSchema } from '../../public/answer-parts.js';

const Id = Type.Optional(Type.Union([Type.String(), Type.Number()], { description: 'Echoed when the item gave one' }));

/** POST /v2/hexcode/bulk (ADR 39). The answer is streamed, so no return type checks it: the e2e contract check does. */
export const BulkHexcodeAnswerSchema = defineAnswer(
  'BulkHexcodeAnswer',
  Type.Object({
    items: Type.Array(
      Type.Union([
        Type.Object(
          { index: Type.Integer(), id: Id, code: Type.String(), display: Type.String(), resolution: Type.Integer(), address: Type.Optional(Nullable(ReverseAddressSchema)) },
          { title: 'A point coded' },
        ),
        Type.Object(
          { index: Type.Integer(), id: Id, code: Type.String(), display: Type.String(), resolution: Type.Integer(), lat: Type.Number(), lng: Type.Number(), accuracy_meters: Type.Number() },
          { title: 'A code decoded' },
        ),
        Type.Object(
          {
            index: Type.Integer(),
            id: Id,
            error: Type.Object({ code: Type.String(), message: Type.String(), field: Type.String(), suggestions: Type.Optional(Type.Array(Type.String())) }),
          },
          { title: 'An item that failed' },
        ),
      ]),
    ),
    count: Type.Integer(),
    failed: Type.Integer(),
    provenance: Nullable(ProvenanceSchema),
  }),
  {
    items: [
      { index: 0, id: 'shop-17', code: '0QPPANVTWH', display: '0QP-PAN-VTWH', resolution: 12, address: null },
      { index: 1, code: '0QPPANVTWH', display: '0QP-PAN-VTWH', resolution: 12, lat: 5.550274293774784, lng: -0.21740539924056956, accuracy_meters: 10.7 },
      { index: 2, error: { code: 'INVALID_PARAM', message: 'lat must be a number from -90 to 90', field: 'items[2].lat' } },
    ],
    count: 3,
    failed: 1,
    provenance: { source: 'geocoded_text', provider: 'hexcode-v1 (H3 v4 cell centre)', accuracy_meters: 10.7, confidence: 0.5, verified_at: '2026-11-22T00:00:00.000Z' },
  },
);
