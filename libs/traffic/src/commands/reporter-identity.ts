import type { ReporterHash } from '../../../platform/src/index.js';

/** Who sent a report, as the request names it. */
export interface ReportSender {
  /** The valid key's account; null for the operator key, a legacy key and a request without a key. */
  accountId: string | null;
  /** A key without an account (a legacy key, the operator's): the key is its own identity. */
  keyPrefix?: string | null;
  /** The client address (behind TRUST_PROXY, the forwarded one). */
  ip: string;
}

/**
 * One reporter is one client, the one rule for every crowd input of this
 * context (hazard corroboration, ADR 0034; arrival telemetry, ADR 0056): a
 * report names every identity of its sender, the keyed hash of the client
 * address and, with a valid key, of its account (a key without an account: of
 * the key). Reports that share any identity are one reporter (platform
 * ReporterGroups). Only keyed hashes are stored, never an address.
 * `reporter` is the key's identity, else the address's (what reports stored
 * before `reporter_ids` carried).
 */
export function reporterIdentity(hash: ReporterHash, from: ReportSender): { reporter: string; reporter_ids: string[] } {
  const network = hash.of(from.ip);
  const key = from.accountId ? hash.of(`account:${from.accountId}`) : from.keyPrefix ? hash.of(`key:${from.keyPrefix}`) : null;
  return key ? { reporter: key, reporter_ids: [network, key] } : { reporter: network, reporter_ids: [network] };
}
