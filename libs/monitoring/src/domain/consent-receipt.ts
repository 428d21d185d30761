import type { ConsentChannel, ConsentNotice, ConsentProof, ConsentState } from './consent.js';

/**
 * A consent receipt (docs/adr/0032): a JWT in compact JWS form signed with
 * the service's identity keys (verify offline with GET /v2/.well-known/jwks.json),
 * its claims after the Kantara Initiative Consent Receipt Specification v1.1
 * (camelCase names are Kantara's; snake_case ones are this service's
 * extensions). One receipt per event: the grant, the revocation, the erasure.
 */
export const CONSENT_RECEIPT_TYP = 'consent-receipt+jwt';
export const KANTARA_VERSION = 'KI-CR-v1.1.0';
/** Ghana: Data Protection Act 2012 (Act 843). */
export const JURISDICTION = 'GH';
/** Receipts record a past agreement: kept valid as long as a lender keeps its records (seven years, like delivery receipts). */
export const CONSENT_RECEIPT_LIFETIME_S = 7 * 365 * 24 * 3600;
export const UNSPECIFIED = 'unspecified';

export type ReceiptEvent = 'granted' | 'revoked' | 'erased';

export interface ConsentReceiptClaims {
  iss: string;
  sub: string;
  iat: number;
  exp: number;
  jti: string;
  version: typeof KANTARA_VERSION;
  jurisdiction: string;
  /** When the customer agreed (seconds): the capture time, else when the grant was recorded. */
  consentTimestamp: number;
  collectionMethod: ConsentChannel;
  consentReceiptID: string;
  language: string;
  piiPrincipalId: string;
  piiControllers: Array<{ piiController: string; onBehalf: boolean }>;
  policyUrl: string | null;
  services: Array<{
    service: string;
    purposes: Array<{ purpose: string; purposeCategory: string[]; consentType: 'EXPLICIT'; piiCategory: string[]; primaryPurpose: boolean; termination: string; thirdPartyDisclosure: boolean }>;
  }>;
  sensitive: boolean;
  spiCat: string[];
  /** Extensions: what this receipt records, and the capture as given. */
  receipt_event: ReceiptEvent;
  status: 'granted' | 'revoked';
  notice: { version: string; sha256: string | null; language: string };
  capture: { channel: ConsentChannel; captured_at: string | null; recorded_at: string; proof: ConsentProof | null; proof_verified: false };
  revoked_at?: string;
  erased_at?: string;
  events_erased?: number;
}

/** The notice of a grant recorded without one reads `unspecified` (docs/adr/0032). */
export function noticeOf(notice: ConsentNotice | undefined): { version: string; sha256: string | null; language: string } {
  return notice ? { ...notice } : { version: UNSPECIFIED, sha256: null, language: UNSPECIFIED };
}

/**
 * The claims of the receipt for `event` of the consent in `state` (granted,
 * revoked or revoked-and-erased). `consentId`: the grant's own id, or the
 * one derived for a grant recorded before ids were kept.
 */
export function consentReceiptClaims(input: { issuer: string; accountId: string; customerId: string; consentId: string; state: Exclude<ConsentState, { status: 'none' }>; event: ReceiptEvent }): ConsentReceiptClaims {
  const { state, event } = input;
  const at = event === 'granted' ? state.granted_at : event === 'revoked' && state.status === 'revoked' ? state.revoked_at : state.status === 'revoked' && state.erased ? state.erased.at : null;
  if (at === null) throw new Error(`a ${state.status} consent has no ${event} receipt`);
  const iat = Math.floor(Date.parse(at) / 1000);
  const notice = noticeOf(state.notice);
  return {
    iss: input.issuer,
    sub: input.customerId,
    iat,
    exp: iat + CONSENT_RECEIPT_LIFETIME_S,
    jti: `${input.consentId}.${event}`,
    version: KANTARA_VERSION,
    jurisdiction: JURISDICTION,
    consentTimestamp: Math.floor(Date.parse(state.captured_at ?? state.granted_at) / 1000),
    collectionMethod: state.channel ?? 'unspecified',
    consentReceiptID: input.consentId,
    language: notice.language,
    piiPrincipalId: input.customerId,
    piiControllers: [{ piiController: input.accountId, onBehalf: false }],
    policyUrl: null,
    services: [
      {
        service: 'location_monitoring',
        purposes: [
          {
            purpose: state.purpose,
            purposeCategory: [state.purpose],
            consentType: 'EXPLICIT',
            piiCategory: [...state.scope],
            primaryPurpose: true,
            termination: 'until revoked (POST /v2/consent/revoke); collected pings erased on POST /v2/consent/delete-data',
            thirdPartyDisclosure: false,
          },
        ],
      },
    ],
    sensitive: state.scope.includes('location'),
    spiCat: state.scope.includes('location') ? ['location'] : [],
    receipt_event: event,
    status: event === 'granted' ? 'granted' : 'revoked',
    notice,
    capture: { channel: state.channel ?? 'unspecified', captured_at: state.captured_at ?? null, recorded_at: state.granted_at, proof: state.proof ? { ...state.proof } : null, proof_verified: false },
    ...(event !== 'granted' && state.status === 'revoked' ? { revoked_at: state.revoked_at } : {}),
    ...(event === 'erased' && state.status === 'revoked' && state.erased ? { erased_at: state.erased.at, events_erased: state.erased.events_erased } : {}),
  };
}
