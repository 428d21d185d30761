/**
 * The `drift_state` read model (projections/drift-state): one document per
 * monitored customer, keyed by the customer's pseudonym (never the customer
 * id: an erasure's tombstone names nobody), its location fields sealed as
 * stored under the customer's key (ADR 12). Version 2 keyed by pseudonym;
 * version 1 was keyed `<account>:<customer>`.
 */
export const DRIFT_STATE_PROJECTION = 'drift_state';
export const DRIFT_STATE_VERSION = 2;

/** A sealed event's data as the projection copies it: opened by the query with the customer's key. */
export interface SealedPart {
  key_id: string;
  sealed: string;
}

export interface DriftStateDoc {
  /** The customer's pseudonym. */
  id: string;
  pseudonym: string;
  /** ZoneRegistered's sealed data; null before a zone is registered. */
  zone: (SealedPart & { registered_at: string }) | null;
  drifting: boolean;
  /** Time of the last drift transition (or of the zone registration). */
  since: string | null;
  /** The newest ping by recorded_at, sealed as stored. */
  latest_ping: (SealedPart & { recorded_at: string }) | null;
  [field: string]: unknown;
}
