import { createHash } from 'node:crypto';
import {
  customerDataKeySubject,
  SealedFields,
  SealedSecretError,
  type CodecSession,
  type DataKey,
  type DataKeyVault,
  type NewEvent,
  type RecordedEvent,
  type StreamCodec,
} from '../../../platform/src/index.js';
import type { Observation } from '../domain/fraud.js';
import type { VerificationEvent } from '../domain/verification.js';
import { MAX_OBSERVATIONS, verificationObservations, type SealedObservation, type StoredObservation } from '../public/identity-signals.read-model.js';

/**
 * Identity's fixes sealed under the customer's own data key (ADR 0054, on
 * ADR 12's crypto-shredding): the key monitoring seals the customer's pings
 * under (`customerDataKeySubject`), which POST /v2/consent/delete-data
 * destroys. From then on every stored copy of these fields, in the event
 * log, in the read store, in Kafka, is noise, while the decision stays.
 *
 * Sealed, per stored type (everything that places the customer):
 * - ProximityVerified: the claimed `address` (its code, text and point), the
 *   `device` fix, the certificate's compact JWS (it names the address code);
 * - AddressVerified: the claimed `address`, the `positions` sent, the
 *   certificate's JWS;
 * - DeliveryConfirmed with a `customer_id`: the `courier` fix, the
 *   `location_code` of it, the expected `address`, the receipt's JWS and the
 *   `recipient_name`. A delivery confirmed without a customer names no one an
 *   erasure could be asked for: it is stored in the clear.
 *
 * In the clear: ids, times, the decision and its reasons, scores, distances,
 * counts, the fraud check, the keyed hashes, provenance (an accuracy, never a
 * point), and of a certificate or receipt its id, key id, times and the
 * SHA-256 of the JWS as issued (`sha256`, `receipt_sha256`: enough to
 * recognise a presented one; the signature itself verifies with the JWKS).
 * A verification also carries, for the `identity_signals` read model, its
 * newest observations each sealed under the same key (`signal_observations`)
 * and the customer id sealed under identity's own key (`signal_ref`), so the
 * velocity check can find whose key opens a device's observations.
 *
 * Events stored before ADR 0054 hold these fields in the clear and are read
 * as they are. An event whose key was destroyed opens to its clear fields and
 * `location_erased: true`: the decider needs only ids and times, the
 * customer's copy shows what stays.
 */
const SEALED: Readonly<Record<string, readonly string[]>> = {
  ProximityVerified: ['address', 'device', 'certificate_token'],
  AddressVerified: ['address', 'positions', 'certificate_token'],
  DeliveryConfirmed: ['courier', 'location_code', 'address', 'receipt', 'recipient_name'],
};

/** Stored fields that are not the event's own data. */
const ENVELOPE = ['key_id', 'signal_ref', 'signal_observations'] as const;

/** The vault subject of identity's own key, which seals the customer references of the signals (never destroyed). */
export const SIGNAL_REF_SUBJECT = '#identity/signal-refs';

interface SealedIdentityData extends Record<string, unknown> {
  key_id: string;
  sealed: string;
}

function isSealedIdentityData(data: Readonly<Record<string, unknown>>): data is SealedIdentityData {
  return typeof data.sealed === 'string' && typeof data.key_id === 'string';
}

/** SHA-256 of a compact JWS as issued, base64url. */
export function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('base64url');
}

const observationContext = (accountId: string, observedAt: string) => `identity_signal|${accountId}|${observedAt}`;
const refContext = (accountId: string) => `identity_signal_ref|${accountId}`;

/** The key lookups of one reader (a command attempt, a copy): each (customer, key id) is looked up once. */
export type KeyLookups = Map<string, Promise<DataKey | undefined>>;

/**
 * Opens identity's stored events: for every reader (the command pipeline's
 * codec, the customer's copy, webhook payloads, banking's latest address).
 */
export class IdentityFieldOpener {
  protected readonly fields = new SealedFields();

  constructor(protected readonly vault: DataKeyVault) {}

  /** The customer's key with this id, if it still exists. */
  findKey(accountId: string, customerId: string, keyId: string): Promise<DataKey | undefined> {
    return this.vault.find(customerDataKeySubject(accountId, customerId), keyId);
  }

  /**
   * The event's data as decided (the form of events stored before sealing),
   * or, when its key was destroyed, its clear fields with `location_erased: true`.
   */
  async open(event: Pick<RecordedEvent, 'type' | 'data' | 'streamName'>, keys: KeyLookups = new Map()): Promise<Record<string, unknown>> {
    const stored = event.data;
    if (!isSealedIdentityData(stored)) return stored;
    const lookup = `${String(stored.account_id)}\u0000${String(stored.customer_id)}\u0000${stored.key_id}`;
    let key = keys.get(lookup);
    if (!key) {
      key = this.findKey(String(stored.account_id), String(stored.customer_id), stored.key_id);
      keys.set(lookup, key);
    }
    return openStored(this.fields, await key, event.streamName, event.type, stored);
  }
}

/** Opens with `key`; erased form when there is none. Throws SealedSecretError on a sealed value that was altered. */
function openStored(fields: SealedFields, key: DataKey | undefined, stream: string, type: string, stored: SealedIdentityData): Record<string, unknown> {
  if (!key) {
    const { sealed: _sealed, key_id: _key, signal_ref: _ref, signal_observations: _observations, ...clear } = stored;
    return { ...clear, location_erased: true };
  }
  const opened = fields.open(key, SealedFields.context(stream, type), stored, ENVELOPE);
  const { certificate_token, receipt_sha256: _digest, ...data } = opened;
  const certificate = data.certificate as { jti: string; kid: string; iat: number; exp: number; sha256?: string } | null | undefined;
  if (certificate && typeof certificate_token === 'string') {
    const { sha256: _sha, ...issued } = certificate;
    data.certificate = { jti: issued.jti, kid: issued.kid, token: certificate_token, iat: issued.iat, exp: issued.exp };
  }
  return data;
}

/**
 * The sealing identity writes with: `IdentityFieldOpener` plus the seal, and
 * the signals' observations. Made once per process (`IdentitySealing.open`).
 */
export class IdentitySealing extends IdentityFieldOpener {
  constructor(
    vault: DataKeyVault,
    private readonly refKey: DataKey,
  ) {
    super(vault);
  }

  static async open(vault: DataKeyVault): Promise<IdentitySealing> {
    return new IdentitySealing(vault, await vault.obtain(SIGNAL_REF_SUBJECT));
  }

  static sealed(type: string): boolean {
    return type in SEALED;
  }

  /** The stored form of a decided event (already stamped with its schema version); unchanged when it names no customer. */
  async seal(stream: string, event: NewEvent): Promise<NewEvent> {
    if (!IdentitySealing.sealed(event.type)) return event;
    const { account_id, customer_id } = event.data;
    if (typeof customer_id !== 'string' || typeof account_id !== 'string') return event;
    // Created on first use: a verification needs no consent, and the key is the one a later erasure of this customer destroys.
    const key = await this.vault.obtain(customerDataKeySubject(account_id, customer_id));
    return { ...event, data: this.sealWith(key, stream, event.type, event.data) };
  }

  sealWith(key: DataKey, stream: string, type: string, data: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const secret = new Set(SEALED[type]);
    const split: Record<string, unknown> = { ...data };
    const certificate = data.certificate as { jti: string; kid: string; token: string; iat: number; exp: number } | null | undefined;
    if (certificate) {
      split.certificate = { jti: certificate.jti, kid: certificate.kid, iat: certificate.iat, exp: certificate.exp, sha256: tokenDigest(certificate.token) };
      split.certificate_token = certificate.token;
    }
    if (typeof data.receipt === 'string') split.receipt_sha256 = tokenDigest(data.receipt);
    const stored = this.fields.seal(key, SealedFields.context(stream, type), split, (field) => !secret.has(field), { key_id: key.id });
    if (type === 'DeliveryConfirmed') return stored;
    const accountId = String(data.account_id);
    // The cast cannot go: a stored event's data is an open JSON object, the verification's a closed record type.
    const observations = verificationObservations({ type, data } as unknown as VerificationEvent)
      .sort((a, b) => b.observed_at.localeCompare(a.observed_at))
      .slice(0, MAX_OBSERVATIONS);
    const signal_observations: SealedObservation[] = observations.map(({ observed_at, lat, lng, accuracy_m }) => ({
      observed_at,
      sealed: this.fields.sealValue(key, observationContext(accountId, observed_at), { lat, lng, accuracy_m }),
    }));
    return { ...stored, signal_ref: this.fields.sealValue(this.refKey, refContext(accountId), String(data.customer_id)), signal_observations };
  }

  /**
   * Positions of the signals' observations: each opened with the key of the
   * customer its reference names. Those whose key was destroyed (an erasure)
   * or that do not open are left out.
   */
  async openObservations(accountId: string, stored: readonly StoredObservation[]): Promise<Observation[]> {
    const customers = new Map<string, string | undefined>();
    const keys = new Map<string, Promise<DataKey | undefined>>();
    const opened: Observation[] = [];
    for (const entry of stored) {
      if (!customers.has(entry.ref)) customers.set(entry.ref, this.openOrNothing(() => this.fields.openValue<string>(this.refKey, refContext(accountId), entry.ref)));
      const customerId = customers.get(entry.ref);
      if (customerId === undefined) continue;
      const lookup = `${customerId}\u0000${entry.key_id}`;
      if (!keys.has(lookup)) keys.set(lookup, this.findKey(accountId, customerId, entry.key_id));
      const key = await keys.get(lookup);
      if (!key) continue;
      const point = this.openOrNothing(() => this.fields.openValue<{ lat: number; lng: number; accuracy_m: number }>(key, observationContext(accountId, entry.observed_at), entry.sealed));
      if (point) opened.push({ ...point, observed_at: entry.observed_at });
    }
    return opened;
  }

  private openOrNothing<T>(open: () => T): T | undefined {
    try {
      return open();
    } catch (error) {
      if (error instanceof SealedSecretError) return undefined;
      throw error;
    }
  }
}

/**
 * The codec under identity's verification and delivery streams (style.md:
 * "Encryption ... is a codec under the stream"): decide → seal → append,
 * decode → open → upcast → evolve. A session remembers the keys it looked up.
 */
export class IdentityCodec<State> implements StreamCodec<State> {
  constructor(private readonly sealing: IdentitySealing) {}

  session(stream: string): CodecSession<State> {
    const keys: KeyLookups = new Map();
    return {
      open: async (event) => ({ ...event, data: await this.sealing.open(event, keys) }),
      seal: (event) => this.sealing.seal(stream, event),
    };
  }
}
