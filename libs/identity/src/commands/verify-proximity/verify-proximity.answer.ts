import { Type } from '@sinclair/typebox';
import { ProvenanceSchema } from '../../../../addressing/src/index.js';
import { defineAnswer, Literals, Nullable } from '../../../../platform/src/index.js';
import { PROXIMITY_OUTCOMES } from '../../domain/proximity.js';
import { CertificateFields, cleanFraudCheckExample, FraudCheckSchema, VerifiedAddressSchema } from '../../http/answer-parts.js';

/** POST /v2/verify/proximity (ADR 39; the decision ladder of docs/adr/0030). */
export const ProximityAnswerSchema = defineAnswer(
  'ProximityAnswer',
  Type.Object({
    verification_id: Type.String(),
    customer_id: Type.String(),
    decision: Literals(PROXIMITY_OUTCOMES),
    distance_m: Type.Number({ description: 'From the device’s fix to the address' }),
    radius_m: Type.Number(),
    reasons: Type.Array(Type.String(), { description: 'Machine-readable: why this decision' }),
    address: VerifiedAddressSchema,
    observed_at: Type.String({ format: 'date-time', description: 'When the device took the fix' }),
    provenance: ProvenanceSchema,
    fraud_check: FraudCheckSchema,
    location_decision: Literals(PROXIMITY_OUTCOMES),
    evidence: Nullable(
      Type.Object({
        origin: Type.Literal('asserted', { description: 'The position came in the request' }),
        positions: Type.Literal(1),
        accuracy_m: Type.Number(),
        observed_at: Type.String({ format: 'date-time' }),
        mock_location: Nullable(Type.Boolean({ description: 'What the client reported; null when not said' })),
        thresholds: Type.Object({ radius_m: Type.Number(), accuracy_slack_cap_m: Type.Number(), poor_fix_m: Type.Number(), max_radius_m: Type.Number() }),
      }),
    ),
    ...CertificateFields,
    certificate_withheld: Nullable(Type.String({ description: 'Why no certificate was signed; null when one was' })),
  }),
  {
    verification_id: 'vrf_3b9d2c1e0f8a4b7c9d6e5f4a3b2c1d0e',
    customer_id: 'cust-8841',
    decision: 'within',
    distance_m: 18.4,
    radius_m: 50,
    reasons: ['within_radius'],
    address: { input: '0QP-PAN-VTWH', code: '0QPPANVTWH', input_kind: 'hex_code', precision: 'cell', label: null, lat: 5.550274293774784, lng: -0.21740539924056956 },
    observed_at: '2026-11-27T09:00:00.000Z',
    provenance: { source: 'device_gps', provider: 'caller', accuracy_meters: 12, confidence: 0.68, verified_at: '2026-11-27T09:00:00.000Z' },
    fraud_check: cleanFraudCheckExample,
    location_decision: 'within',
    evidence: { origin: 'asserted', positions: 1, accuracy_m: 12, observed_at: '2026-11-27T09:00:00.000Z', mock_location: false, thresholds: { radius_m: 50, accuracy_slack_cap_m: 50, poor_fix_m: 100, max_radius_m: 5000 } },
    certificate: 'eyJhbGciOiJFZERTQSIsImtpZCI6ImstMjAyNi0xMS0wMSJ9.eyJkZWNpc2lvbiI6IndpdGhpbiJ9.c2lnbmF0dXJl',
    certificate_id: 'cert_7a6b5c4d3e2f1a0b',
    kid: 'k-2026-11-01',
    expires_at: '2027-11-27T09:00:00.000Z',
    certificate_withheld: null,
  },
);
