import { Type } from '@sinclair/typebox';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';

/** GET /v2/consents (ADR 39; docs/adr/0032, "Listing"). */
export const ConsentPageSchema = defineAnswer(
  'ConsentPage',
  Type.Object({
    items: Type.Array(
      Type.Object({
        consent_id: Type.String(),
        customer_id: Nullable(Type.String({ description: 'Null once the customer’s data was erased: the id went with their record key' })),
        status: Type.Union([Type.Literal('active'), Type.Literal('revoked'), Type.Literal('erased')]),
        purpose: Type.String(),
        scope: Type.Array(Type.String()),
        notice: Type.Object({ version: Type.String(), sha256: Nullable(Type.String()), language: Type.String() }),
        channel: Type.String(),
        captured_at: Nullable(Type.String({ format: 'date-time' })),
        granted_at: Type.String({ format: 'date-time' }),
        revoked_at: Nullable(Type.String({ format: 'date-time' })),
        erased_at: Nullable(Type.String({ format: 'date-time' })),
        receipt_ids: Type.Array(Type.String(), { description: 'The `jti` of each receipt the record was answered with' }),
      }),
    ),
    next_cursor: Nullable(Type.String({ description: 'Pass back as `cursor` (with the same `status`); null on the last page' })),
  }),
  {
    items: [
      {
        consent_id: 'cr_0b6f2d8e4a1c4e7f9d3b5a7c9e1f3a5b',
        customer_id: 'cust-8841',
        status: 'active',
        purpose: 'loan_collections',
        scope: ['location'],
        notice: { version: 'loan-monitoring-2026-10', sha256: '3f8a1c0e9b7d5a2f4e6c8b0a1d3f5e7c9b2a4d6f8e0c1b3a5d7f9e2c4b6a8d0f', language: 'en-GH' },
        channel: 'app',
        captured_at: '2026-11-27T08:58:10.000Z',
        granted_at: '2026-11-27T09:00:00.000Z',
        revoked_at: null,
        erased_at: null,
        receipt_ids: ['cr_0b6f2d8e4a1c4e7f9d3b5a7c9e1f3a5b.granted'],
      },
    ],
    next_cursor: null,
  },
);
