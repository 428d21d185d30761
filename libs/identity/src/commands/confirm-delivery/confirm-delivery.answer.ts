import { Type } from '@sinclair/typebox';
import { ProvenanceSchema } from '../../../../addressing/src/index.js';
import { defineAnswer, Nullable } from '../../../../platform/src/index.js';
import { PROXIMITY_DECISIONS } from '../../domain/proximity.js';

/** POST /v2/delivery/confirm (ADR 39). */
export const DeliveryReceiptSchema = defineAnswer(
  'DeliveryReceipt',
  Type.Object({
    delivery_id: Type.String(),
    customer_id: Nullable(Type.String()),
    receipt: Type.String({ description: 'The signed proof-of-delivery receipt, a compact JWS verifiable with the JWKS' }),
    receipt_id: Type.String(),
    kid: Type.String({ description: 'The key that signed it' }),
    confirmed_at: Type.String({ format: 'date-time' }),
    location_code: Type.String({ description: 'The hex code of the courier’s position' }),
    address: Nullable(
      Type.Object(
        {
          code: Type.String(),
          distance_m: Type.Number(),
          radius_m: Type.Number(),
          decision: Type.Union(PROXIMITY_DECISIONS.map((decision) => Type.Literal(decision))),
        },
        { description: 'Against the expected address, when the request named one' },
      ),
    ),
    provenance: ProvenanceSchema,
    already_confirmed: Type.Boolean({ description: 'True when the delivery was confirmed before: the answer is the first receipt, never a second' }),
  }),
  {
    delivery_id: 'dlv-20261127-0042',
    customer_id: 'cust-8841',
    receipt: 'eyJhbGciOiJFZERTQSIsImtpZCI6ImstMjAyNi0xMS0wMSIsInR5cCI6InBvZCtqd3QifQ.eyJkZWxpdmVyeV9pZCI6ImRsdi0yMDI2MTEyNy0wMDQyIn0.c2lnbmF0dXJl',
    receipt_id: 'rcpt_5f1c0e7a9b2d4c3e8f6a1b0c9d8e7f6a',
    kid: 'k-2026-11-01',
    confirmed_at: '2026-11-27T09:12:44.000Z',
    location_code: '0QPPANVTWH',
    address: { code: '0QPPANVTWH', distance_m: 6.2, radius_m: 50, decision: 'within' },
    provenance: { source: 'device_gps', provider: 'caller', accuracy_meters: 8, confidence: 0.68, verified_at: '2026-11-27T09:12:40.000Z' },
    already_confirmed: false,
  },
);
