import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { GhanaPostDecodingSchema, Nullable } from '../../public/answer-parts.js';

const Kind = Type.Union([Type.Literal('hex_code'), Type.Literal('ghanapost_gps')]);

/** POST /v2/address/parse (ADR 39). */
export const ParseAnswerSchema = defineAnswer(
  'ParseAnswer',
  Type.Object({
    code: Nullable(Type.String({ description: 'The first code in the text (canonical form); null when there is none' })),
    kind: Nullable(Kind),
    display: Nullable(Type.String()),
    resolution: Nullable(Type.Integer({ description: 'Hex codes only' })),
    cell: Nullable(Type.String({ description: 'Hex codes only: the H3 cell' })),
    convertible: Type.Boolean({ description: 'True when this service can turn the code into a point' }),
    recognised: Nullable(
      Type.Object({
        shape: Type.Union([Type.Literal('compact'), Type.Literal('hyphenated'), Type.Literal('spaced'), Type.Literal('mixed')]),
        letter_case: Type.Union([Type.Literal('upper'), Type.Literal('lower'), Type.Literal('mixed'), Type.Literal('none')]),
        look_alikes: Type.Boolean({ description: 'The input used I, L or O for 1, 1 or 0' }),
        embedded: Type.Boolean({ description: 'Other text surrounds the code' }),
        matched_text: Type.String(),
        start: Type.Integer({ description: 'Offset into the text in UTF-16 code units' }),
        end: Type.Integer({ description: 'End offset, exclusive' }),
      }),
    ),
    note: Nullable(Type.String()),
    other_codes: Type.Array(Type.Object({ code: Type.String(), kind: Kind }), { description: 'Codes after the first' }),
    suggestions: Type.Array(Type.String(), { description: 'When code-shaped text failed its check: what it likely was' }),
    suggested_for: Nullable(Type.String({ description: 'The code-shaped text the suggestions are for' })),
    ghanapost_gps: Nullable(GhanaPostDecodingSchema),
  }),
  {
    code: '0QPPANVTWH',
    kind: 'hex_code',
    display: '0QP-PAN-VTWH',
    resolution: 12,
    cell: '8c7576951745dff',
    convertible: true,
    recognised: { shape: 'hyphenated', letter_case: 'lower', look_alikes: false, embedded: true, matched_text: '0qp-pan-vtwh', start: 20, end: 32 },
    note: null,
    other_codes: [],
    suggestions: [],
    suggested_for: null,
    ghanapost_gps: null,
  },
);
