import type { Provenance } from '../../../addressing/src/index.js';
import type { FraudCheck } from './fraud.js';
import type { EvidenceSummary } from './kyc.js';
import type { ProximityDecision, ProximityEvidence } from './proximity.js';

/**
 * What the signed artefacts say (docs/adr/0016). Both are JWTs in compact
 * JWS form, `alg: EdDSA` (Ed25519), with the signing key's `kid` and an
 * explicit `typ` (RFC 8725 §3.11), so a receipt can never be passed off as a
 * certificate or the other way round. Anyone verifies them offline with the
 * public keys of GET /v2/.well-known/jwks.json (retired keys stay there).
 *
 * - `iss`: the deployment's PUBLIC_BASE_URL; `sub`: a keyed hash of the
 *   account and the customer (or delivery), never the caller's raw id, so a
 *   certificate shown to a third party names no one, yet two certificates of
 *   the same customer carry the same `sub`.
 * - `exp`: a proximity certificate is evidence for a decision about a person
 *   and goes stale: one year. A delivery receipt records a past hand-over and
 *   serves as a commercial record: seven years. Past `exp` the signature still
 *   verifies against the JWKS (retired keys are never removed); a verifier
 *   checking the historical record verifies as of `iat`.
 */
export const PROXIMITY_CERTIFICATE_TYP = 'proximity-certificate+jwt';
export const DELIVERY_RECEIPT_TYP = 'delivery-receipt+jwt';
/** A KYC address verification's certificate (docs/adr/0030): signed for `verified` only. */
export const ADDRESS_CERTIFICATE_TYP = 'address-verification+jwt';
export const SIGNING_ALGORITHM = 'EdDSA';
export const CERTIFICATE_LIFETIME_S = 365 * 24 * 3600;
export const RECEIPT_LIFETIME_S = 7 * 365 * 24 * 3600;

export interface RegisteredClaims {
  iss: string;
  sub: string;
  /** Seconds since the epoch. */
  iat: number;
  exp: number;
  jti: string;
}

export interface ProximityCertificateClaims extends RegisteredClaims {
  decision: ProximityDecision;
  distance_m: number;
  radius_m: number;
  address_code: string;
  /** When the device took its fix. */
  observed_at: string;
  provenance: Provenance;
  /** The fraud checks that fired, and those that could not run. */
  fraud: { flags: string[]; degraded_checks: string[] };
  /** What the decision rests on (docs/adr/0030). */
  evidence: ProximityEvidence;
}

export interface AddressCertificateClaims extends RegisteredClaims {
  decision: 'verified';
  score: number;
  radius_m: number;
  address_code: string;
  /** The evidence summary as answered, without the thresholds (they are ADR 0030's, named in `policy`). */
  evidence: Omit<EvidenceSummary, 'thresholds'>;
  policy: string;
  provenance: Provenance;
  fraud: { flags: string[]; degraded_checks: string[] };
}

/** Names the threshold set a signed decision applied. */
export const EVIDENCE_POLICY = 'adr-0030/v1';

export interface DeliveryReceiptClaims extends RegisteredClaims {
  delivery_id: string;
  delivered_at: string;
  /** The hex code (address resolution) of the courier's position. */
  location_code: string;
  provenance: Provenance;
  /** Against the expected address, when the caller named one. */
  address_code?: string;
  distance_m?: number;
  radius_m?: number;
  decision?: ProximityDecision;
  recipient_name?: string;
  photo_sha256?: string;
}

export function epochSeconds(at: Date): number {
  return Math.floor(at.getTime() / 1000);
}

export function proximityCertificateClaims(input: {
  issuer: string;
  subject: string;
  jti: string;
  now: Date;
  decision: ProximityDecision;
  distance_m: number;
  radius_m: number;
  address_code: string;
  observed_at: string;
  provenance: Provenance;
  fraud_check: Pick<FraudCheck, 'flags' | 'degraded_checks'>;
  evidence: ProximityEvidence;
}): ProximityCertificateClaims {
  const iat = epochSeconds(input.now);
  return {
    iss: input.issuer,
    sub: input.subject,
    iat,
    exp: iat + CERTIFICATE_LIFETIME_S,
    jti: input.jti,
    decision: input.decision,
    distance_m: input.distance_m,
    radius_m: input.radius_m,
    address_code: input.address_code,
    observed_at: input.observed_at,
    provenance: input.provenance,
    fraud: { flags: [...input.fraud_check.flags], degraded_checks: [...input.fraud_check.degraded_checks] },
    evidence: input.evidence,
  };
}

export function addressCertificateClaims(input: {
  issuer: string;
  subject: string;
  jti: string;
  now: Date;
  score: number;
  radius_m: number;
  address_code: string;
  evidence: EvidenceSummary;
  provenance: Provenance;
  fraud_check: Pick<FraudCheck, 'flags' | 'degraded_checks'>;
}): AddressCertificateClaims {
  const iat = epochSeconds(input.now);
  const { thresholds: _thresholds, ...evidence } = input.evidence;
  return {
    iss: input.issuer,
    sub: input.subject,
    iat,
    exp: iat + CERTIFICATE_LIFETIME_S,
    jti: input.jti,
    decision: 'verified',
    score: input.score,
    radius_m: input.radius_m,
    address_code: input.address_code,
    evidence,
    policy: EVIDENCE_POLICY,
    provenance: input.provenance,
    fraud: { flags: [...input.fraud_check.flags], degraded_checks: [...input.fraud_check.degraded_checks] },
  };
}

export function deliveryReceiptClaims(input: {
  issuer: string;
  subject: string;
  jti: string;
  now: Date;
  delivery_id: string;
  delivered_at: string;
  location_code: string;
  provenance: Provenance;
  address: { code: string; distance_m: number; radius_m: number; decision: ProximityDecision } | null;
  recipient_name: string | null;
  photo_sha256: string | null;
}): DeliveryReceiptClaims {
  const iat = epochSeconds(input.now);
  return {
    iss: input.issuer,
    sub: input.subject,
    iat,
    exp: iat + RECEIPT_LIFETIME_S,
    jti: input.jti,
    delivery_id: input.delivery_id,
    delivered_at: input.delivered_at,
    location_code: input.location_code,
    provenance: input.provenance,
    ...(input.address ? { address_code: input.address.code, distance_m: input.address.distance_m, radius_m: input.address.radius_m, decision: input.address.decision } : {}),
    ...(input.recipient_name !== null ? { recipient_name: input.recipient_name } : {}),
    ...(input.photo_sha256 !== null ? { photo_sha256: input.photo_sha256 } : {}),
  };
}
