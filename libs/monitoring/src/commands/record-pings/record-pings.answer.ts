import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';

const Outcome = Type.Union([
  Type.Object({ index: Type.Integer(), status: Type.Literal('accepted'), ping_id: Type.String(), late: Type.Boolean({ description: 'Recorded long after it was taken' }) }),
  Type.Object({ index: Type.Integer(), status: Type.Literal('duplicate'), ping_id: Type.String({ description: 'The ping stored before: sending again is safe' }) }),
  Type.Object({
    index: Type.Integer(),
    status: Type.Literal('refused'),
    error: Type.Object({ code: Type.String(), message: Type.String(), field: Type.Optional(Type.String()) }),
  }),
]);

/** POST /v2/monitoring/pings (ADR 39): a batch answers one outcome per ping; the single-ping form answers its one outcome. */
export const PingsRecordedSchema = defineAnswer(
  'PingsRecorded',
  Type.Union([
    Type.Object(
      { items: Type.Array(Outcome), accepted: Type.Integer(), duplicates: Type.Integer(), refused: Type.Integer() },
      { title: 'A batch (`pings`)' },
    ),
    Outcome,
  ]),
  {
    items: [
      { index: 0, status: 'accepted', ping_id: 'png_4c1e9a7b2d5f8e3a', late: false },
      { index: 1, status: 'duplicate', ping_id: 'png_9d2b6f0a3c7e1b4d' },
    ],
    accepted: 1,
    duplicates: 1,
    refused: 0,
  },
);
