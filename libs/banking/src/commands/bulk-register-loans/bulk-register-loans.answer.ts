import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { OrNull } from '../../answer-parts.js';

/** POST /v2/collections/bulk-register: counts, then one outcome per loan in request order (BulkOutcome). */
export const BulkLoanRegistrationSchema = defineAnswer(
  'BulkLoanRegistration',
  Type.Object({
    total: Type.Integer(),
    created: Type.Integer(),
    updated: Type.Integer(),
    unchanged: Type.Integer(),
    refused: Type.Integer(),
    items: Type.Array(
      Type.Union([
        Type.Object({
          index: Type.Integer({ description: 'Position of the loan in `loans`' }),
          loan_id: Type.String(),
          outcome: Type.Union([Type.Literal('created'), Type.Literal('updated'), Type.Literal('unchanged')]),
        }),
        Type.Object({
          index: Type.Integer(),
          loan_id: OrNull(Type.String({ description: 'Null when the item had no usable loan_id' })),
          outcome: Type.Literal('refused'),
          error: Type.Object(
            {
              code: Type.String({ description: 'As a single registration would answer (INVALID_PARAM, INVALID_CODE, DUPLICATE_LOAN_ID, CONCURRENCY_CONFLICT: send it again)' }),
              message: Type.String(),
              field: Type.Optional(Type.String({ description: 'The field at fault, as `loans[i].…`' })),
            },
            { description: 'Why this loan was refused; the others are not affected' },
          ),
        }),
      ]),
    ),
  }),
  {
    total: 3,
    created: 1,
    updated: 0,
    unchanged: 1,
    refused: 1,
    items: [
      { index: 0, loan_id: 'KMA-2026-004187', outcome: 'unchanged' },
      { index: 1, loan_id: 'KMA-2026-004188', outcome: 'created' },
      { index: 2, loan_id: 'KMA-2026-004189', outcome: 'refused', error: { code: 'INVALID_PARAM', message: 'zone.radius_m must be between 10 and 50000', field: 'loans[2].zone.radius_m' } },
    ],
  },
);
