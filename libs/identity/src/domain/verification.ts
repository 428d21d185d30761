import type { Provenance } from '../../../addressing/src/index.js';
import type { Decider } from '../../../platform/src/commands/decider.js';
import type { FraudCheck } from './fraud.js';
import type { Decision } from './evidence.js';
import type { AddressAssessment, KycResult } from './kyc.js';
import type { ClaimedAddress, DevicePosition, ProximityDecision, ProximityEvidence, ProximityOutcome } from './proximity.js';

/**
 * Every verification of a customer is an event in the customer's
 * verification stream, kept for the account's audit. Consent erasure never
 * touches it (interface.md, "Consent states": "KYC verifications and
 * certificates are never touched"): it holds what the caller sent with the
 * request and what was decided, and of the recorded pings only counts.
 */
export function verificationStream(accountId: string, customerId: string): string {
  return `identity_verification-${accountId}:${customerId}`;
}

/** Keyed hashes of the identifiers a verification carried: what the fraud signals are built from. */
export interface VerificationSignals {
  customer_hash: string;
  device_hash: string | null;
  ip_hash: string | null;
  phone_hash: string | null;
  email_hash: string | null;
}

export interface IssuedCertificate {
  jti: string;
  kid: string;
  /** The compact JWS as issued. */
  token: string;
  iat: number;
  exp: number;
}

export interface ProximityVerified {
  type: 'ProximityVerified';
  data: {
    verification_id: string;
    account_id: string;
    customer_id: string;
    /** The certificate's `sub`. */
    subject: string;
    address: ClaimedAddress;
    device: DevicePosition & { mock_location?: boolean | null };
    /** The outcome: the geometric decision unless fraud sent it to review or failed it (docs/adr/0030). */
    decision: ProximityOutcome;
    /** Where the fix lies against the address, whatever the fraud checks said; absent before ADR 30 (then `decision`). */
    location_decision?: ProximityDecision;
    distance_m: number;
    radius_m: number;
    reasons: string[];
    evidence?: ProximityEvidence;
    provenance: Provenance;
    fraud_check: FraudCheck;
    signals: VerificationSignals;
    /** Signed for `within` and `outside` only (null otherwise, since ADR 30). */
    certificate: IssuedCertificate | null;
    verified_at: string;
  };
}

export interface AddressVerified {
  type: 'AddressVerified';
  data: {
    verification_id: string;
    account_id: string;
    customer_id: string;
    address: ClaimedAddress;
    result: KycResult;
    /** The decision ladder (docs/adr/0030); absent on verifications recorded before it. */
    decision?: Decision;
    needed_for_verified?: AddressAssessment['needed_for_verified'];
    score: number | null;
    radius_m: number;
    reasons: AddressAssessment['reasons'];
    evidence: AddressAssessment['evidence'];
    /** The positions sent with the request (never recorded pings). */
    positions: Array<{ lat: number; lng: number; accuracy_m: number | null; recorded_at: string; mock_location?: boolean | null }>;
    provenance: Provenance;
    fraud_check: FraudCheck;
    signals: VerificationSignals;
    /** Signed for a `verified` decision only. */
    certificate?: IssuedCertificate | null;
    verified_at: string;
  };
}

export type VerificationEvent = ProximityVerified | AddressVerified;
export const VERIFICATION_EVENT_TYPES = ['ProximityVerified', 'AddressVerified'] as const satisfies readonly VerificationEvent['type'][];

export interface VerificationState {
  verifications: number;
  last_verified_at: string | null;
  /** Ids of the latest verifications: a command retried after its append went through records nothing twice. */
  recent_ids: string[];
}
export const initialVerificationState: VerificationState = { verifications: 0, last_verified_at: null, recent_ids: [] };
const RECENT_IDS = 50;

/**
 * The verification is worked out before the decision (resolving the address,
 * reading the fraud signals and signing take I/O); the decider records it
 * once. `verification` is absent until the command is prepared.
 */
export type VerificationCommand =
  | { type: 'RecordProximityVerification'; verification_id: string; verification?: ProximityVerified['data'] }
  | { type: 'RecordAddressVerification'; verification_id: string; verification?: AddressVerified['data'] };

export function evolveVerification(state: VerificationState, event: VerificationEvent): VerificationState {
  switch (event.type) {
    case 'ProximityVerified':
    case 'AddressVerified':
      return {
        verifications: state.verifications + 1,
        last_verified_at: event.data.verified_at,
        recent_ids: [...state.recent_ids, event.data.verification_id].slice(-RECENT_IDS),
      };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

export function decideVerification(command: VerificationCommand, state: VerificationState): VerificationEvent[] {
  if (state.recent_ids.includes(command.verification_id)) return [];
  if (!command.verification) throw new Error(`${command.type} was not prepared`);
  if (command.verification.verification_id !== command.verification_id) throw new Error(`${command.type} was prepared for another verification`);
  return command.type === 'RecordProximityVerification'
    ? [{ type: 'ProximityVerified', data: command.verification }]
    : [{ type: 'AddressVerified', data: command.verification }];
}

export const verificationDecider: Decider<VerificationCommand, VerificationState, VerificationEvent> = {
  initialState: initialVerificationState,
  evolve: evolveVerification,
  decide: (command, state) => decideVerification(command, state),
};
