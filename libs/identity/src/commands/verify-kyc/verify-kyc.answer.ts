import { Type } from '@sinclair/typebox';
import { ProvenanceSchema } from '../../../../addressing/src/index.js';
import { defineAnswer, Literals, Nullable } from '../../../../platform/src/index.js';
import { BURST_FLAGS, DECISIONS } from '../../domain/evidence.js';
import { KYC_RESULTS } from '../../domain/kyc.js';
import { CertificateFields, cleanFraudCheckExample, FraudCheckSchema, VerifiedAddressSchema } from '../../http/answer-parts.js';

const Reason = Type.Object({ code: Type.String(), message: Type.String() });

const OriginTally = Type.Object({
  positions: Type.Integer(),
  usable: Type.Integer({ description: 'Accurate to 150 m (100 m assumed where none was reported)' }),
  in_zone: Type.Integer(),
  days: Type.Integer(),
  nights: Type.Integer(),
  nights_at_home: Type.Integer(),
  span_hours: Type.Number({ description: 'From the first usable position to the last' }),
  median_accuracy_m: Nullable(Type.Number()),
});

const Thresholds = Type.Object(
  {
    usable_accuracy_m: Type.Number(),
    minimum: Type.Object({ positions: Type.Integer(), days: Type.Integer() }),
    score: Type.Number(),
    verified: Type.Object({
      recorded_pings: Type.Integer(),
      days: Type.Integer(),
      nights: Type.Integer(),
      span_hours: Type.Number(),
      share_in_zone: Type.Number(),
      nights_at_home_share: Type.Number(),
      median_accuracy_m: Type.Number(),
    }),
    bursts: Type.Object({
      same_timestamp: Type.Integer(),
      identical_coordinates: Type.Object({ min_positions: Type.Integer(), share: Type.Number() }),
      arrival: Type.Object({ min_span_hours: Type.Number(), max_arrival_ratio: Type.Number() }),
    }),
  },
  { description: 'The thresholds the decision applied (docs/adr/0030)' },
);

/** POST /v2/kyc/verify (ADR 39; the decision ladder and evidence summary of docs/adr/0030). */
export const KycAnswerSchema = defineAnswer(
  'KycAnswer',
  Type.Object({
    verification_id: Type.String(),
    customer_id: Type.String(),
    decision: Literals(DECISIONS),
    result: Literals(KYC_RESULTS),
    score: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
    reasons: Type.Array(Reason),
    needed_for_verified: Type.Array(
      Type.Object({ code: Type.String(), have: Type.Union([Type.Number(), Type.String()]), need: Type.Union([Type.Number(), Type.String()]), message: Type.String() }),
      { description: 'What evidence would make the decision `verified`' },
    ),
    radius_m: Type.Number(),
    address: VerifiedAddressSchema,
    evidence: Type.Object({
      from_request: Type.Integer(),
      from_recorded_pings: Type.Integer(),
      recorded_pings: Literals(['used', 'no_consent', 'none_recorded', 'not_requested', 'unavailable'] as const),
      usable: Type.Integer(),
      in_zone: Type.Integer(),
      share_in_zone: Nullable(Type.Number()),
      days_observed: Type.Integer(),
      nights_observed: Type.Integer(),
      nights_at_home: Type.Integer(),
      recorded: Type.Optional(OriginTally),
      asserted: Type.Optional(OriginTally),
      mock_locations: Type.Optional(Type.Integer({ description: 'Positions the client reported as simulated' })),
      bursts: Type.Optional(Type.Object({ flagged: Type.Boolean(), flags: Type.Array(Literals(BURST_FLAGS)), details: Type.Array(Reason) })),
      thresholds: Type.Optional(Thresholds),
    }),
    provenance: ProvenanceSchema,
    fraud_check: FraudCheckSchema,
    ...CertificateFields,
  }),
  {
    verification_id: 'vrf_9c8b7a6f5e4d3c2b1a0f9e8d7c6b5a4f',
    customer_id: 'cust-8841',
    decision: 'likely',
    result: 'not_verified',
    score: 0.82,
    reasons: [{ code: 'asserted_only', message: 'every position came in the request; none was recorded under consent' }],
    needed_for_verified: [{ code: 'recorded_pings', have: 0, need: 10, message: 'at least 10 usable pings recorded through POST /v2/monitoring/pings under consent' }],
    radius_m: 100,
    address: { input: '0QP-PAN-VTWH', code: '0QPPANVTWH', input_kind: 'hex_code', precision: 'cell', label: null, lat: 5.550274293774784, lng: -0.21740539924056956 },
    evidence: {
      from_request: 6,
      from_recorded_pings: 0,
      recorded_pings: 'no_consent',
      usable: 6,
      in_zone: 5,
      share_in_zone: 0.83,
      days_observed: 3,
      nights_observed: 2,
      nights_at_home: 2,
    },
    provenance: { source: 'device_gps', provider: 'caller', accuracy_meters: 15, confidence: 0.41, verified_at: '2026-11-27T09:00:00.000Z' },
    fraud_check: cleanFraudCheckExample,
    certificate: null,
    certificate_id: null,
    kid: null,
    expires_at: null,
  },
);
