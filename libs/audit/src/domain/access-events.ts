import { hash } from 'node:crypto';

/**
 * One authenticated request, as the auditor replays it years later
 * (interface.md, "Banking features": who called what, when, from where).
 */
// A type, not an interface: event payloads built on it stay comparable with the log's Record<string, unknown> (interfaces have no implicit index signature).
export type AccessEntry = {
  account_id: string | null;
  key_prefix: string;
  principal_kind: string;
  method: string;
  path: string;
  status: number;
  client_ip: string;
  /** ISO 8601 UTC time the request arrived. */
  at: string;
  request_id: string;
  /**
   * The customer the request named, when it named one (the path's, query's or
   * body's `customer_id`, or the one customer of a ping batch): who looked at
   * which customer (GET /v2/banking/audit-log/customers/{customer_id}).
   * Absent otherwise, and on every entry recorded before it was kept.
   */
  customer_id?: string;
};

/** Each entry links to its predecessor's hash, so an edit or a removal breaks the chain. */
export interface ApiAccessRecorded {
  type: 'ApiAccessRecorded';
  data: AccessEntry & { seq: number; prev_hash: string; hash: string };
}

export type AccessEvent = ApiAccessRecorded;

export const ACCESS_EVENT_TYPES = ['ApiAccessRecorded'] as const;

export const GENESIS_HASH = '0'.repeat(64);

/** One chain per account; the operator key and keys without an account share `platform`. */
export function accessStream(accountId: string | null): string {
  return `access_log-${accountId ?? 'platform'}`;
}

/** Canonical JSON: keys sorted at every level, so the hash does not depend on field order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value as Record<string, unknown>)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** AccessEntry's fields in canonical (sorted) order, without and with the customer named. */
const ENTRY_FIELDS = ['account_id', 'at', 'client_ip', 'key_prefix', 'method', 'path', 'principal_kind', 'request_id', 'status'] as const;
const ENTRY_FIELDS_WITH_CUSTOMER = ['account_id', 'at', 'client_ip', 'customer_id', 'key_prefix', 'method', 'path', 'principal_kind', 'request_id', 'status'] as const;

/**
 * canonicalJson of an entry, without sorting keys for the usual one: exactly
 * the AccessEntry fields, each a string, number, boolean or null, give the
 * same text from the fixed order. Anything else takes the general path.
 */
function canonicalEntry(entry: AccessEntry): string {
  let count = 0;
  for (const key in entry) if (Object.hasOwn(entry, key)) count++;
  const fields = Object.hasOwn(entry, 'customer_id') ? ENTRY_FIELDS_WITH_CUSTOMER : ENTRY_FIELDS;
  if (count !== fields.length) return canonicalJson(entry);
  let text = '{';
  for (const field of fields) {
    if (!Object.hasOwn(entry, field)) return canonicalJson(entry);
    const value: unknown = entry[field];
    if (value !== null && typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return canonicalJson(entry);
    text += `${text.length > 1 ? ',' : ''}"${field}":${JSON.stringify(value)}`;
  }
  return `${text}}`;
}

export function chainHash(prevHash: string, seq: number, entry: AccessEntry): string {
  return hash('sha256', `${prevHash}\n${seq}\n${canonicalEntry(entry)}`, 'hex');
}

export interface ChainLink {
  prevHash: string;
  seq: number;
}

/** Links entries onto a chain whose last link is `head` (or the genesis). */
export function link(entries: AccessEntry[], head: ChainLink | undefined): ApiAccessRecorded[] {
  let prevHash = head?.prevHash ?? GENESIS_HASH;
  let seq = head ? head.seq + 1 : 0;
  return entries.map((entry) => {
    const hash = chainHash(prevHash, seq, entry);
    // Object.assign rather than a spread followed by more fields, which V8 runs on a slow path (µs per entry).
    const data = Object.assign({}, entry) as ApiAccessRecorded['data'];
    data.seq = seq;
    data.prev_hash = prevHash;
    data.hash = hash;
    const event: ApiAccessRecorded = { type: 'ApiAccessRecorded', data };
    prevHash = hash;
    seq++;
    return event;
  });
}

export type ChainVerdict = { ok: true; entries: number; head: string } | { ok: false; entries: number; brokenAt: number; reason: string };

/**
 * Checks a whole chain read back from the store: every hash recomputes, every
 * entry names its predecessor's hash, and sequence numbers have no gap.
 */
export function verifyChain(events: Array<ApiAccessRecorded['data']>): ChainVerdict {
  let prevHash = GENESIS_HASH;
  for (let index = 0; index < events.length; index++) {
    const { seq, prev_hash, hash, ...entry } = events[index];
    if (seq !== index) return { ok: false, entries: events.length, brokenAt: index, reason: `sequence gap: expected ${index}, found ${seq}` };
    if (prev_hash !== prevHash) return { ok: false, entries: events.length, brokenAt: index, reason: 'previous-hash link broken (an entry was removed or reordered)' };
    if (chainHash(prev_hash, seq, entry) !== hash) return { ok: false, entries: events.length, brokenAt: index, reason: 'hash mismatch (the entry was edited)' };
    prevHash = hash;
  }
  return { ok: true, entries: events.length, head: prevHash };
}
