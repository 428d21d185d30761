import type { CustomerRecords } from '../../../../monitoring/src/index.js';

/**
 * What the customer's copy (POST /v2/consent/access-request) shows of records
 * made before their data was erased (issue 47; docs/guides/compliance.md,
 * "The customer's copy after erasure"; docs/adr/0055). Erasure keeps what the
 * law and the contract need kept, and the copy shows no more of it than that:
 *
 * - the consent history as facts: granted (purpose, scope, when), revoked
 *   (when), erased (when, by which key prefix, how many events); not the
 *   notice, the channel, the capture time, the proof reference, the consent
 *   id or the receipts, which link the record to the customer's device and
 *   to signed receipts naming them;
 * - each KYC or proximity verification as its decision (result, decision,
 *   score, reasons, when) and its certificate's identifiers, never the
 *   positions sent, the device fix, the claimed address, the evidence, the
 *   fraud signals or the certificate token (its claims name an address).
 *
 * Kept fields are listed (a whitelist): a field a context adds later is left
 * out of an erased customer's copy until someone decides it may be shown.
 * Records made after the erasure (a new grant) are shown whole.
 */

type ConsentItem = CustomerRecords['consents'][number];

/** Fields of each consent event kept once the customer was erased, by event type. */
const CONSENT_FACTS: Record<string, readonly string[]> = {
  ConsentGranted: ['purpose', 'scope', 'granted_at'],
  ConsentRevoked: ['revoked_at'],
  CustomerDataErased: ['erased_at', 'erased_by', 'events_erased'],
  ConsentRecordSealed: ['sealed_at'],
};
/** Of a ConsentRecordSealed's restated record. */
const RECORD_FACTS = ['purpose', 'scope', 'granted_at', 'revoked_at', 'erased_at'] as const;

/** Fields of a verification kept once the customer was erased (its decision, never where anyone was). */
const VERIFICATION_FACTS = ['type', 'verification_id', 'result', 'decision', 'location_decision', 'score', 'reasons', 'verified_at'] as const;
const CERTIFICATE_FACTS = ['jti', 'kid', 'iat', 'exp'] as const;

function pick(source: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((field) => source[field] !== undefined).map((field) => [field, source[field]]));
}

/** The consent events up to and including the last erasure as facts only; those after it whole. */
export function consentsAfterErasure(consents: readonly ConsentItem[]): ConsentItem[] {
  const last = consents.findLastIndex((item) => item.type === 'CustomerDataErased');
  return consents.map((item, index) => {
    if (index > last) return item;
    const data = pick(item.data, CONSENT_FACTS[item.type] ?? []);
    if (item.type === 'ConsentRecordSealed' && typeof item.data.record === 'object' && item.data.record !== null) {
      data.record = pick(item.data.record as Record<string, unknown>, RECORD_FACTS);
    }
    return { type: item.type, at: item.at, receipt: null, data };
  });
}

/** Verifications made at or before the erasure as their decisions; later ones whole. */
export function verificationsAfterErasure(items: ReadonlyArray<Record<string, unknown>>, erasedAt: string): Array<Record<string, unknown>> {
  return items.map((item) => {
    // A verification without its time is treated as made before: shown as its decision.
    if (typeof item.verified_at === 'string' && item.verified_at > erasedAt) return item;
    const facts = pick(item, VERIFICATION_FACTS);
    const certificate = item.certificate;
    if (certificate !== undefined) facts.certificate = certificate !== null && typeof certificate === 'object' ? pick(certificate as Record<string, unknown>, CERTIFICATE_FACTS) : null;
    return facts;
  });
}
