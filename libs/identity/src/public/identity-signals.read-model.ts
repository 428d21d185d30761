import type { Doc } from '../../../platform/src/index.js';
import { SYNTHETIC_WINDOW_MS, type LinkedCustomers, type Observation } from '../domain/fraud.js';
import { UNKNOWN_ACCURACY_M } from '../domain/kyc.js';
import type { VerificationEvent, VerificationSignals } from '../domain/verification.js';

/**
 * The `identity_signals` read model the fraud checks read, built from the
 * verification events by `projections/identity-signals/`. Keyed hashes only
 * (`hashing/identity-hashing.ts`): no customer id, phone, e-mail, device id
 * or IP in the clear. Two kinds of documents, one per account and hash:
 *
 * - `link`: the customers seen with one IP, device, phone or e-mail, each
 *   with when it was last seen (IP-bulk, device-bulk, synthetic identity).
 *   Entries older than the longest window (90 days) are dropped.
 * - `observations`: the latest positions of one customer or device
 *   (velocity), the newest 10 by when they were taken. Each is sealed under
 *   its customer's data key (ADR 0054), as the verification event carries it:
 *   the projection copies it and never holds a key; the fraud check opens it
 *   (`sealing/identity-sealing.ts`), and once an erasure destroyed the key it
 *   is noise. Version 2: version 1 held the positions in the clear, and
 *   verifications stored before sealing give no observation here.
 */
export const IDENTITY_SIGNALS_READ_MODEL = { name: 'identity_signals', version: 2 } as const;

export type LinkIdentifier = 'ip' | 'device' | 'phone' | 'email';
export type ObservedSubject = 'customer' | 'device';

export interface LinkDoc extends Doc {
  kind: 'link';
  account_id: string;
  identifier: LinkIdentifier;
  customers: Record<string, string>;
}

/**
 * One observation as the read model keeps it: when it was taken in the clear
 * (the newest 10 are kept), where and how accurately sealed under the key
 * `key_id` of its customer, who is named by `ref` (the customer id sealed
 * under identity's own key: a device's observations come from several customers).
 */
export interface StoredObservation {
  observed_at: string;
  key_id: string;
  ref: string;
  sealed: string;
}

export interface ObservationsDoc extends Doc {
  kind: 'observations';
  account_id: string;
  subject: ObservedSubject;
  observations: StoredObservation[];
}

export type IdentitySignalDoc = LinkDoc | ObservationsDoc;

/** By account: the fraud checks read documents by id; this lists an account's signals (operators, rebuild comparisons). */
export const IDENTITY_SIGNAL_INDEXES = [{ name: 'by_account', fields: ['account_id', 'kind'] }];

export const MAX_OBSERVATIONS = 10;
/** A link document keeps at most this many customers (the newest): enough for every threshold, bounded for a hot IP. */
export const MAX_LINKED_CUSTOMERS = 1000;

export function linkDocId(accountId: string, identifier: LinkIdentifier, hash: string): string {
  return `link:${accountId}:${identifier}:${hash}`;
}

export function observationsDocId(accountId: string, subject: ObservedSubject, hash: string): string {
  return `observations:${accountId}:${subject}:${hash}`;
}

/** One document write a verification causes. */
export interface SignalUpdate {
  id: string;
  evolve(current: IdentitySignalDoc | undefined): IdentitySignalDoc;
}

/** Where a verification observed its customer: the proximity fix, or each position a KYC request sent (never recorded pings). */
export function verificationObservations(event: VerificationEvent): Observation[] {
  return event.type === 'ProximityVerified'
    ? [{ lat: event.data.device.lat, lng: event.data.device.lng, accuracy_m: event.data.device.accuracy_m, observed_at: event.data.device.recorded_at }]
    : event.data.positions.map((position) => ({ lat: position.lat, lng: position.lng, accuracy_m: position.accuracy_m ?? UNKNOWN_ACCURACY_M, observed_at: position.recorded_at }));
}

/** A verification's observation as its stored event carries it for this read model: sealed under the customer's key. */
export interface SealedObservation {
  observed_at: string;
  sealed: string;
}

/**
 * What a stored verification gives the signals: its clear fields and, when it
 * was stored sealed, its key id, the sealed customer reference and its newest
 * observations (`sealing/identity-sealing.ts`). A verification stored in the
 * clear (before ADR 0054) gives links only.
 */
export interface StoredVerificationSignals {
  account_id: string;
  signals: VerificationSignals;
  verified_at: string;
  key_id?: string;
  signal_ref?: string;
  signal_observations?: SealedObservation[];
}

/** What the verification adds to the signals: a link per identifier it carried, its observations per customer and device. */
export function signalUpdates(stored: StoredVerificationSignals): SignalUpdate[] {
  const { account_id, signals, verified_at, key_id, signal_ref } = stored;
  const observations: StoredObservation[] =
    typeof key_id === 'string' && typeof signal_ref === 'string' && Array.isArray(stored.signal_observations)
      ? stored.signal_observations.map(({ observed_at, sealed }) => ({ observed_at, key_id, ref: signal_ref, sealed }))
      : [];
  const updates: SignalUpdate[] = [];
  const links: Array<[LinkIdentifier, string | null]> = [
    ['ip', signals.ip_hash],
    ['device', signals.device_hash],
    ['phone', signals.phone_hash],
    ['email', signals.email_hash],
  ];
  for (const [identifier, hash] of links) {
    if (hash === null) continue;
    const id = linkDocId(account_id, identifier, hash);
    updates.push({ id, evolve: (current) => link(current, id, account_id, identifier, signals.customer_hash, verified_at) });
  }
  if (observations.length > 0) {
    const subjects: Array<[ObservedSubject, string | null]> = [
      ['customer', signals.customer_hash],
      ['device', signals.device_hash],
    ];
    for (const [subject, hash] of subjects) {
      if (hash === null) continue;
      const id = observationsDocId(account_id, subject, hash);
      updates.push({ id, evolve: (current) => observe(current, id, account_id, subject, observations) });
    }
  }
  return updates;
}

function link(current: IdentitySignalDoc | undefined, id: string, account_id: string, identifier: LinkIdentifier, customer: string, at: string): LinkDoc {
  const cutoff = Date.parse(at) - SYNTHETIC_WINDOW_MS;
  const previous = current?.kind === 'link' ? current.customers : {};
  const seen: Record<string, string> = { ...previous, [customer]: previous[customer] && previous[customer] > at ? previous[customer] : at };
  const kept = Object.entries(seen)
    .filter(([, last]) => Date.parse(last) >= cutoff)
    .sort(([, a], [, b]) => b.localeCompare(a))
    .slice(0, MAX_LINKED_CUSTOMERS);
  return { id, kind: 'link', account_id, identifier, customers: Object.fromEntries(kept) };
}

function observe(current: IdentitySignalDoc | undefined, id: string, account_id: string, subject: ObservedSubject, added: StoredObservation[]): ObservationsDoc {
  const previous = current?.kind === 'observations' ? current.observations : [];
  const observations = [...previous, ...added].sort((a, b) => b.observed_at.localeCompare(a.observed_at)).slice(0, MAX_OBSERVATIONS);
  return { id, kind: 'observations', account_id, subject, observations };
}

export function linkedCustomersOf(doc: IdentitySignalDoc | undefined): LinkedCustomers {
  return doc?.kind === 'link' ? doc.customers : {};
}

/** The sealed observations of a document: `IdentitySealing.openObservations` makes positions of them. */
export function observationsOf(doc: IdentitySignalDoc | undefined): StoredObservation[] {
  return doc?.kind === 'observations' ? doc.observations : [];
}
