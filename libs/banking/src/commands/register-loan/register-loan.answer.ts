import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { CollectionZoneSchema, OrNull } from '../../answer-parts.js';

/** POST /v2/collections/register (loanAnswer). */
export const LoanRegistrationSchema = defineAnswer(
  'LoanRegistration',
  Type.Object({
    loan_id: Type.String(),
    customer_id: Type.String({ description: "The borrower, by the lender's own id" }),
    zone: CollectionZoneSchema,
    expected_collection_days: OrNull(Type.Integer({ description: 'Days between expected collections; null when none was given' })),
    outcome: Type.Union([Type.Literal('created'), Type.Literal('updated'), Type.Literal('unchanged')], { description: '`unchanged`: the same terms again (idempotent by loan_id); `updated`: new terms replaced the old' }),
    registered_at: Type.String({ format: 'date-time', description: 'When the terms in force were registered' }),
  }),
  {
    loan_id: 'KMA-2026-004187',
    customer_id: 'cust-88213',
    zone: { type: 'point', lat: 6.6885, lng: -1.6244, radius_m: 500 },
    expected_collection_days: 7,
    outcome: 'created',
    registered_at: '2026-11-27T09:14:22.000Z',
  },
);
