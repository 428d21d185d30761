import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { ConsentReceiptSchema, receiptExample } from '../../http/consent-answer-parts.js';

/** POST /v2/consent/delete-data (ADR 39): with a signed receipt of the erasure (docs/adr/0032). */
export const DataErasedSchema = defineAnswer(
  'DataErased',
  Type.Object({
    customer_id: Type.String(),
    erased: Type.Literal(true),
    erased_at: Type.String({ format: 'date-time' }),
    events_erased: Type.Integer({ description: 'Location events (pings, zone, drift, geofence events) made unreadable' }),
    consent_id: Type.String(),
    receipt: ConsentReceiptSchema,
  }),
  { customer_id: 'cust-8841', erased: true, erased_at: '2026-12-15T10:05:00.000Z', events_erased: 2880, consent_id: 'cr_0b6f2d8e4a1c4e7f9d3b5a7c9e1f3a5b', receipt: receiptExample },
);
