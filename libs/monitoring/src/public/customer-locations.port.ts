import type { RecordedEvent } from '../../../platform/src/index.js';

/**
 * What the monitoring context tells other contexts about a customer's
 * location (style.md, "Between contexts"): where the customer was last seen,
 * under which consent, the pings recorded in a window, and a feed of changes.
 * Monitoring publishes and implements it; banking and identity inject it by
 * `CUSTOMER_LOCATIONS` and never see its streams' sealing, its pseudonyms, its
 * codecs or its read-model documents. Positions are opened with the
 * customer's data key on every call (ADR 12): after an erasure there is
 * nothing to answer, here or in anything built on it.
 */
export interface CustomerLocations {
  /** The customer's consent as it stands now (from its stream: a grant or revoke acknowledged a moment ago is seen). */
  consent(accountId: string, customerId: string): Promise<CustomerConsent>;
  /** The newest ping (by recorded_at) and the drift state against the customer's home zone. */
  lastKnown(accountId: string, customerId: string): Promise<CustomerSighting>;
  /** The pings recorded at or after `since`, newest first, at most `limit`, when location consent is granted now. */
  recordedPings(accountId: string, customerId: string, since: Date, limit: number): Promise<RecordedPings>;
  /**
   * Everything monitoring holds about one customer, for the customer's own copy
   * (issue 30, Act 843 right of access): the consent events as stored, the fact
   * of an erasure, and one page of the location history (pings opened with the
   * customer's key, drift and geofence events), oldest first after `cursor`.
   */
  customerRecords(accountId: string, customerId: string, cursor: string | null, limit: number): Promise<CustomerRecords>;
  /** Changes as they are stored, for an in-memory view that follows them. */
  readonly changes: CustomerLocationFeed;
}

export interface CustomerRecords {
  /** ConsentGranted / ConsentRevoked / CustomerDataErased as stored, oldest first; `receipt` when the grant carried one (else null). */
  consents: Array<{ type: string; at: string; receipt: unknown; data: Record<string, unknown> }>;
  /** Set once the customer's location data was erased: when, by which key prefix, how many events went. */
  erasure: { erased_at: string; erased_by: string; events_erased: number } | null;
  /** One page of the location history: `{type: 'PingRecorded', lat, lng, …}`, drift and geofence events, as opened. */
  history: Array<Record<string, unknown>>;
  /** Stored location events that could not be opened (sealed under a destroyed key): counted, never shown. */
  unreadable: number;
  /** Where the next page starts; null on the last. */
  next_cursor: string | null;
}

export const CUSTOMER_LOCATIONS = Symbol('CustomerLocations');

export interface CustomerConsent {
  status: 'none' | 'granted' | 'revoked';
  /** Null when never granted. */
  purpose: string | null;
  scope: readonly string[];
  granted_at: string | null;
  revoked_at: string | null;
}

export interface KnownPosition {
  lat: number;
  lng: number;
  accuracy_m: number | null;
  recorded_at: string;
}

export interface CustomerSighting {
  /** The newest ping (by recorded_at); null when none was recorded (or its key was destroyed by an erasure). */
  position: KnownPosition | null;
  /** Drift against the customer's registered home zone (PUT /v2/monitoring/zones); false without a zone. */
  drifting: boolean;
}

/** A recorded ping also says when it reached the service: evidence delivered as it happened is worth more than a month posted at once. */
export type RecordedPing = KnownPosition & {
  received_at?: string;
  /** The client reported the fix as simulated (true) or not (false); absent when it did not say (docs/adr/0030). */
  mock_location?: boolean;
};

export type RecordedPings = { consent: 'granted'; pings: RecordedPing[] } | { consent: 'not_granted' };

/** One change to what the port answers about a customer. */
export type CustomerLocationChange =
  | { kind: 'position'; account_id: string; customer_id: string; position: KnownPosition }
  | { kind: 'drift'; account_id: string; customer_id: string; drifting: boolean }
  /** The customer's location data was erased: no position, no drift from here on. */
  | { kind: 'erased'; account_id: string; customer_id: string }
  /** A grant (with its purpose) or a revoke: either replaces the consent that stood. */
  | { kind: 'consent'; account_id: string; customer_id: string; consent: { status: 'granted'; purpose: string } | { status: 'revoked' } };

export type CustomerLocationChangeKind = CustomerLocationChange['kind'];

/**
 * The change feed, as a view's `LogFollower` follows it: `source` names what
 * the follower reads for the kinds of change wanted (the stream prefixes and
 * stored types are monitoring's business, handed over as they are), and
 * `decode` turns each stored event read into its change. A view that loads
 * its start through `lastKnown` continues from `lastKnownCheckpoint`, the
 * position what `lastKnown` answers from has reached.
 */
export interface CustomerLocationFeed {
  source(kinds: readonly CustomerLocationChangeKind[]): { streamPrefixes: string[]; handles: string[] };
  /** The change a stored event makes; undefined when it makes none (or was sealed under a destroyed key). */
  decode(event: RecordedEvent): Promise<CustomerLocationChange | undefined>;
  readonly lastKnownCheckpoint: string;
}
