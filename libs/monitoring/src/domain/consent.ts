import type { Decider } from '../../../platform/src/commands/decider.js';
import { DomainError, InvalidParamError } from '../../../platform/src/errors.js';
import { CALLER_ID, parseCallerId } from '../../../platform/src/ids/caller-id.js';

/**
 * A customer's location-monitoring consent, one stream per (account, customer)
 * (interface.md, "Consent states"). The customer id is the calling account's
 * own identifier for its customer, so the same id under two accounts is two
 * customers.
 */
export const CONSENT_PURPOSES = ['loan_collections', 'fleet_dispatch', 'delivery_tracking', 'safety_monitoring', 'unspecified'] as const;
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];
/** interface.md, "Compatibility" 4: older integrations send no purpose. */
export const DEFAULT_PURPOSE: ConsentPurpose = 'unspecified';

/** Location pings are the only data collected so far; a grant without a scope covers them. */
export const DEFAULT_SCOPE: readonly string[] = ['location'];
export const SCOPE_MAX_ENTRIES = 20;
export const SCOPE_ENTRY = /^[a-z][a-z0-9_.-]{0,63}$/;

/** The caller's own id of its customer: platform's caller-id rule. */
export const CUSTOMER_ID = CALLER_ID;

/** How the customer gave consent (docs/adr/0032); grants recorded before it was asked are `unspecified`. */
export const CONSENT_CHANNELS = ['app', 'ussd', 'web', 'paper', 'agent', 'unspecified'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];
export const PROOF_KINDS = ['otp', 'device_signature'] as const;
export type ProofKind = (typeof PROOF_KINDS)[number];
export const NOTICE_VERSION = /^[A-Za-z0-9][A-Za-z0-9._:+-]{0,63}$/;
export const NOTICE_SHA256 = /^[0-9a-f]{64}$/;
/** BCP 47 language tag (en, en-GH, tw, ee, gaa, dag, fat). */
export const NOTICE_LANGUAGE = /^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8}){0,3}$/;
export const PROOF_REFERENCE_MAX = 2048;
/**
 * A proof reference's alphabet (docs/adr/0059): printable ASCII, U+0020 to
 * U+007E, neither starting nor ending with a space, 1 to PROOF_REFERENCE_MAX
 * characters. OTP transaction ids and base64/base64url/hex signatures fit; a
 * control character (NUL, CR, LF), a line or paragraph separator or any other
 * non-ASCII character is refused before it can be signed into a receipt.
 */
export const PROOF_REFERENCE = new RegExp(`^[\\x21-\\x7E](?:[\\x20-\\x7E]{0,${PROOF_REFERENCE_MAX - 2}}[\\x21-\\x7E])?$`);
export const PROOF_REFERENCE_MESSAGE = `proof.reference must be 1-${PROOF_REFERENCE_MAX} printable ASCII characters (U+0020-U+007E), not starting or ending with a space`;

/**
 * How a grant names its notice before the service resolves it (docs/adr/0059):
 * the version, and the language and hash when given (`from_text`: the hash was
 * computed here from the notice's text, which goes no further). The grant's
 * `prepare` resolves it against the account's notice registry into a ConsentNotice.
 */
export interface NoticeReference {
  version: string;
  language?: string;
  sha256?: string;
  from_text?: boolean;
}

/** The notice the customer was shown: its version, the SHA-256 (hex) of its exact text, its language. */
export interface ConsentNotice {
  version: string;
  sha256: string;
  language: string;
}
/** What backs the customer's (not the lender's) agreement: an OTP reference or a device signature, as supplied (not verified by the service). */
export interface ConsentProof {
  kind: ProofKind;
  reference: string;
}
/** What a grant captured (docs/adr/0032); every field is absent on grants recorded before it, which read as `unspecified`. */
export interface ConsentCapture {
  /** This grant's id (the receipts' consentReceiptID). */
  consent_id?: string;
  notice?: ConsentNotice;
  channel?: ConsentChannel;
  /** When the customer agreed, by the capturing channel's clock. */
  captured_at?: string;
  proof?: ConsentProof;
}

/** A customer id sealed under the customer's consent-record key (docs/adr/0032, "Listing"): opened by GET /v2/consents, noise once an erasure destroyed the key. */
export interface SealedCustomer {
  key_id: string;
  sealed: string;
}
/**
 * What names a consent record in the `consents` read model without naming the
 * customer: their keyed pseudonym, and their id sealed (null once erased).
 * Absent in events stored before it; those streams get a ConsentRecordSealed.
 */
export interface ConsentRecordSeal {
  pseudonym: string;
  customer_sealed: SealedCustomer | null;
}

export interface ConsentGranted {
  type: 'ConsentGranted';
  data: { account_id: string; customer_id: string; purpose: ConsentPurpose; scope: string[]; granted_at: string } & ConsentCapture & Partial<ConsentRecordSeal>;
}
export interface ConsentRevoked {
  type: 'ConsentRevoked';
  /** `pseudonym`: absent in events stored before consent records were listed. */
  data: { account_id: string; customer_id: string; revoked_at: string; pseudonym?: string };
}
/** The terms of a consent record as a ConsentRecordSealed restates them. */
export interface ConsentRecordTerms extends Omit<ConsentCapture, 'consent_id' | 'proof'> {
  consent_id: string;
  purpose: ConsentPurpose;
  scope: string[];
  granted_at: string;
  revoked_at: string | null;
  erased_at: string | null;
}
/**
 * The backfill of a stream whose standing grant was stored before consent
 * records were sealed (docs/adr/0032, "Listing"): its record as it stands,
 * with the pseudonym and the sealed customer id (null when already erased), so
 * the `consents` projection can list it without ever holding the id.
 */
export interface ConsentRecordSealed {
  type: 'ConsentRecordSealed';
  data: { account_id: string; customer_id: string; sealed_at: string; record: ConsentRecordTerms } & ConsentRecordSeal;
}
/**
 * The record that a customer's location history was erased: who asked (the
 * key's prefix), when, and how many events went. Never any location (ADR 12).
 */
export interface CustomerDataErased {
  type: 'CustomerDataErased';
  data: {
    account_id: string;
    customer_id: string;
    erased_at: string;
    erased_by: string;
    events_erased: number;
    /**
     * The keyed pseudonym that names the customer's read-model documents
     * (drift_state deletes its document by it). Absent in events stored
     * before read models were keyed by pseudonym.
     */
    pseudonym?: string;
  };
}
export type ConsentEvent = ConsentGranted | ConsentRevoked | CustomerDataErased | ConsentRecordSealed;
export const CONSENT_EVENT_TYPES = ['ConsentGranted', 'ConsentRevoked', 'CustomerDataErased', 'ConsentRecordSealed'] as const satisfies readonly ConsentEvent['type'][];

/** `record_sealed`: the standing grant's record names the customer by pseudonym (docs/adr/0032, "Listing"); false for grants stored before. */
export type ConsentState =
  | { status: 'none' }
  | ({ status: 'granted'; purpose: ConsentPurpose; scope: string[]; granted_at: string; record_sealed?: boolean } & ConsentCapture)
  /** The last grant's terms stay visible: they say what the customer had agreed to. */
  | ({ status: 'revoked'; purpose: ConsentPurpose; scope: string[]; granted_at: string; revoked_at: string; erased?: { at: string; events_erased: number; erased_by?: string }; record_sealed?: boolean } & ConsentCapture);
export const initialConsentState: ConsentState = { status: 'none' };

export class ConsentNotGrantedError extends DomainError {
  readonly code = 'CONSENT_NOT_GRANTED';
  readonly status = 409;
  constructor(customerId: string) {
    super(`customer ${customerId} has no granted consent to revoke`);
  }
}

/** interface.md, "Consent states": deleting data before revoking is rejected with HTTP 400. */
export class ConsentNotRevokedError extends DomainError {
  readonly code = 'CONSENT_NOT_REVOKED';
  readonly status = 400;
  constructor(customerId: string) {
    super(`revoke the consent of customer ${customerId} before deleting their data`);
  }
}

export function parseCustomerId(value: unknown): string {
  return parseCallerId(value, 'customer_id');
}

/** Entries are trimmed of duplicates (first occurrence kept); an empty scope would consent to nothing. */
export function parseScope(value: readonly string[] | undefined): string[] {
  if (value === undefined) return [...DEFAULT_SCOPE];
  const scope = [...new Set(value)];
  if (scope.length === 0) throw new InvalidParamError('scope must name at least one kind of data', 'scope');
  if (scope.length > SCOPE_MAX_ENTRIES) throw new InvalidParamError(`scope holds at most ${SCOPE_MAX_ENTRIES} entries`, 'scope');
  const bad = scope.find((entry) => !SCOPE_ENTRY.test(entry));
  if (bad !== undefined) throw new InvalidParamError(`scope entry ${JSON.stringify(bad)} must be 1-64 characters of a-z, 0-9, "_", "." and "-", starting with a letter`, 'scope');
  return scope;
}

/** `consent-<account>:<customer>`: the category has no dash, so EventStoreDB's category projection sees `consent`. */
export function consentStream(accountId: string, customerId: string): string {
  return `consent-${accountId}:${parseCustomerId(customerId)}`;
}

export function evolveConsent(state: ConsentState, event: ConsentEvent): ConsentState {
  switch (event.type) {
    case 'ConsentGranted': {
      const { account_id: _account, customer_id: _customer, pseudonym, customer_sealed: _sealed, ...terms } = event.data;
      return { status: 'granted', ...terms, ...(pseudonym !== undefined ? { record_sealed: true } : {}) };
    }
    case 'ConsentRecordSealed':
      return state.status === 'none' ? state : { ...state, record_sealed: true };
    case 'ConsentRevoked':
      return state.status === 'granted' ? { ...state, status: 'revoked', revoked_at: event.data.revoked_at } : state;
    case 'CustomerDataErased':
      return state.status === 'revoked' ? { ...state, erased: { at: event.data.erased_at, events_erased: event.data.events_erased, erased_by: event.data.erased_by } } : state;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

/** `seal` and `pseudonym` are filled by the commands' `prepare` (a key lookup), never by a caller. */
export type ConsentCommand =
  | ({
      type: 'GrantConsent';
      account_id: string;
      customer_id: string;
      purpose: ConsentPurpose;
      scope: string[];
      seal?: ConsentRecordSeal;
      /** The notice as the caller named it; `prepare` resolves it into `notice` (docs/adr/0059). */
      notice_ref?: NoticeReference;
      /** When the calling account was opened (filled by `prepare`): no capture time may precede it. */
      account_opened_at?: string;
    } & ConsentCapture)
  | { type: 'RevokeConsent'; account_id: string; customer_id: string; pseudonym?: string }
  | { type: 'RecordErasure'; account_id: string; customer_id: string; erased_by: string; events_erased: number; pseudonym: string }
  | { type: 'SealConsentRecord'; account_id: string; customer_id: string; consent_id?: string; seal?: ConsentRecordSeal };

export type GrantConsent = Extract<ConsentCommand, { type: 'GrantConsent' }>;
export type RevokeConsent = Extract<ConsentCommand, { type: 'RevokeConsent' }>;
export type RecordErasure = Extract<ConsentCommand, { type: 'RecordErasure' }>;
export type SealConsentRecord = Extract<ConsentCommand, { type: 'SealConsentRecord' }>;

/** Whether location may be collected now: a granted consent whose scope covers location. */
export function collectsLocation(state: ConsentState): boolean {
  return state.status === 'granted' && state.scope.includes('location');
}

/**
 * Granting is always allowed: after a revoke it is a new grant, and while
 * granted a grant with another purpose or scope replaces them (each such
 * grant is its own event, so the history shows what was agreed when). A grant
 * identical to the standing one records nothing and answers the standing
 * grant: repeating a request (a client retry, or twenty of them at once)
 * changes nothing. Revoking needs a live grant: a second revoke, or one for a
 * customer never granted, is CONSENT_NOT_GRANTED (409) rather than 404,
 * because an unknown customer and a revoked one are both "nothing to revoke"
 * and the caller owns the customer ids anyway. An erasure is recorded once per
 * revoke: repeating it (concurrently, or after a crash half way) answers the
 * first record, since nothing can be collected in between.
 */
export function decideConsent(command: ConsentCommand, state: ConsentState, now: Date): ConsentEvent[] {
  switch (command.type) {
    case 'GrantConsent': {
      const { account_id, customer_id, purpose, scope, consent_id, notice, channel, captured_at, proof, seal } = command;
      if (command.notice_ref !== undefined) throw new Error('a grant reached its decider with its notice unresolved (its prepare)');
      // Checked before the idempotence shortcut: a lax value stored earlier is not signed again into a new receipt.
      assertCaptureValues(command, now);
      if (state.status === 'granted' && state.purpose === purpose && sameList(state.scope, scope) && sameCapture(state, command)) return [];
      const capture: ConsentCapture = {
        ...(consent_id !== undefined ? { consent_id } : {}),
        ...(notice !== undefined ? { notice: { ...notice } } : {}),
        ...(channel !== undefined ? { channel } : {}),
        ...(captured_at !== undefined ? { captured_at } : {}),
        ...(proof !== undefined ? { proof: { ...proof } } : {}),
      };
      return [{ type: 'ConsentGranted', data: { account_id, customer_id, purpose, scope: [...scope], granted_at: now.toISOString(), ...capture, ...(seal ? { ...seal } : {}) } }];
    }
    case 'RevokeConsent': {
      if (state.status !== 'granted') throw new ConsentNotGrantedError(command.customer_id);
      const { account_id, customer_id, pseudonym } = command;
      return [{ type: 'ConsentRevoked', data: { account_id, customer_id, revoked_at: now.toISOString(), ...(pseudonym !== undefined ? { pseudonym } : {}) } }];
    }
    case 'SealConsentRecord': {
      // Only a standing record stored before records were sealed; anything since carries its seal already.
      if (state.status === 'none' || state.record_sealed) return [];
      const { account_id, customer_id, consent_id, seal } = command;
      if (!seal || !consent_id) throw new Error('SealConsentRecord needs its seal and consent id (its prepare)');
      const record: ConsentRecordTerms = {
        consent_id,
        purpose: state.purpose,
        scope: [...state.scope],
        granted_at: state.granted_at,
        revoked_at: state.status === 'revoked' ? state.revoked_at : null,
        erased_at: state.status === 'revoked' ? (state.erased?.at ?? null) : null,
        ...(state.notice ? { notice: { ...state.notice } } : {}),
        ...(state.channel ? { channel: state.channel } : {}),
        ...(state.captured_at ? { captured_at: state.captured_at } : {}),
      };
      return [{ type: 'ConsentRecordSealed', data: { account_id, customer_id, sealed_at: now.toISOString(), record, ...seal } }];
    }
    case 'RecordErasure': {
      if (assertDataDeletable(state, command.customer_id).erased) return [];
      const { account_id, customer_id, erased_by, events_erased, pseudonym } = command;
      return [{ type: 'CustomerDataErased', data: { account_id, customer_id, erased_by, events_erased, erased_at: now.toISOString(), pseudonym } }];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

/** The consent stream's aggregate, as the command pipeline runs it. */
export const consentDecider: Decider<ConsentCommand, ConsentState, ConsentEvent> = {
  initialState: initialConsentState,
  evolve: evolveConsent,
  decide: decideConsent,
};

/** A capture time may run ahead of the service's clock by this much (a phone's clock), no more; and as far behind the account's opening. */
export const CAPTURE_CLOCK_SKEW_MS = 5 * 60_000;

/**
 * docs/adr/0059: a capture time no earlier than the account's opening (less
 * the clock skew: a phone running slow) and no later than now plus the skew;
 * a proof reference of the printable alphabet (PROOF_REFERENCE).
 */
function assertCaptureValues(command: GrantConsent, now: Date): void {
  const { captured_at, account_opened_at, proof } = command;
  if (captured_at !== undefined) {
    const at = Date.parse(captured_at);
    if (!Number.isFinite(at)) throw new InvalidParamError('captured_at must be an ISO 8601 time', 'captured_at');
    if (at > now.getTime() + CAPTURE_CLOCK_SKEW_MS) throw new InvalidParamError('captured_at is in the future (more than 5 minutes ahead of the service\'s clock)', 'captured_at');
    if (account_opened_at !== undefined && at < Date.parse(account_opened_at) - CAPTURE_CLOCK_SKEW_MS) {
      throw new InvalidParamError(`captured_at ${captured_at} is before this account was opened (${account_opened_at}): a consent cannot have been captured for it then`, 'captured_at');
    }
  }
  if (proof !== undefined && !PROOF_REFERENCE.test(proof.reference)) throw new InvalidParamError(PROOF_REFERENCE_MESSAGE, 'proof.reference');
}

/** Same notice, channel, capture time and proof (the consent id is the service's, not the customer's). */
function sameCapture(a: ConsentCapture, b: ConsentCapture): boolean {
  return (
    JSON.stringify([a.notice?.version, a.notice?.sha256, a.notice?.language, a.channel ?? 'unspecified', a.captured_at, a.proof?.kind, a.proof?.reference]) ===
    JSON.stringify([b.notice?.version, b.notice?.sha256, b.notice?.language, b.channel ?? 'unspecified', b.captured_at, b.proof?.kind, b.proof?.reference])
  );
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((entry, i) => entry === b[i]);
}

/** interface.md, "Consent states": a customer's data may be erased only once their consent is revoked. */
export function assertDataDeletable(state: ConsentState, customerId: string): Extract<ConsentState, { status: 'revoked' }> {
  if (state.status !== 'revoked') throw new ConsentNotRevokedError(customerId);
  return state;
}
