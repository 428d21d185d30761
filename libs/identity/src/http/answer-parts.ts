import { Type } from '@sinclair/typebox';
import { Literals, Nullable } from '../../../platform/src/index.js';
import { FRAUD_CHECKS } from '../domain/fraud.js';

/** Schema parts the verification answers share (ADR 39). */

const CheckResult = Type.Object({
  status: Literals(['clear', 'flagged', 'not_applicable', 'skipped'] as const),
  detail: Type.String(),
});

export const FraudCheckSchema = Type.Object(
  {
    flagged: Type.Boolean({ description: 'At least one check fired' }),
    flags: Type.Array(Literals(FRAUD_CHECKS)),
    degraded: Type.Boolean({ description: 'A check could not read its signals and was skipped: fewer signals ran; nothing is implied about fraud' }),
    degraded_checks: Type.Array(Literals(FRAUD_CHECKS)),
    checks: Type.Object(Object.fromEntries(FRAUD_CHECKS.map((check) => [check, CheckResult])) as Record<(typeof FRAUD_CHECKS)[number], typeof CheckResult>),
  },
  { description: 'Velocity, IP bulk, device bulk and synthetic identity, failing open (interface.md, "Fraud check")' },
);

export const VerifiedAddressSchema = Type.Object({
  input: Type.String({ description: 'What the caller sent' }),
  code: Type.String({ description: 'The hex code of the resolved point' }),
  input_kind: Literals(['hex_code', 'text'] as const),
  precision: Literals(['structure', 'cell', 'place'] as const),
  label: Nullable(Type.String()),
  lat: Type.Number(),
  lng: Type.Number(),
});

export const CertificateFields = {
  certificate: Nullable(Type.String({ description: 'Compact JWS verifiable with GET /v2/.well-known/jwks.json; null when the decision warrants none' })),
  certificate_id: Nullable(Type.String()),
  kid: Nullable(Type.String()),
  expires_at: Nullable(Type.String({ format: 'date-time' })),
};

/** A clean fraud check, as both verification examples show it. */
export const cleanFraudCheckExample = {
  flagged: false,
  flags: [],
  degraded: false,
  degraded_checks: [],
  checks: {
    velocity: { status: 'clear' as const, detail: 'no earlier observation implies over 300 km/h' },
    ip_bulk: { status: 'clear' as const, detail: '1 customer from this IP in the last hour' },
    device_bulk: { status: 'not_applicable' as const, detail: 'no device_id sent' },
    synthetic_identity: { status: 'not_applicable' as const, detail: 'no phone, e-mail or device sent' },
  },
};

