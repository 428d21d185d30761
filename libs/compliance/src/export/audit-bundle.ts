import type { AuditTrail, ChainEntry } from '../../../audit/src/index.js';
import { InvalidParamError, type Clock, type EventStore } from '../../../platform/src/index.js';
import { checkpointsOf } from '../checkpoints/checkpoint-writer.js';
import { liveAnchor } from '../checkpoints/live-anchor.js';

/** Entries one bundle carries at most (range and links); a longer range is asked for in parts. */
export const MAX_BUNDLE_ENTRIES = 100_000;

export const BUNDLE_FORMAT = 'audit-bundle/1';

/**
 * One JSON document a third party checks with the JWKS alone
 * (tools/verify-audit-bundle.mjs; docs/adr/0023):
 * - `entries`: the chain from just after `anchor` (a signed head before
 *   `from`, or the genesis) up to the first signed head at or after the last
 *   entry in range, so both ends are tied to a signature; entries outside
 *   [from, to) are there only as links.
 * - `checkpoints`: the signed heads (compact JWS) that fall within them.
 */
export interface AuditBundle {
  format: typeof BUNDLE_FORMAT;
  stream: string;
  from: string | null;
  to: string | null;
  generated_at: string;
  genesis_hash: string;
  /** The signed head the first entry links to; null when the entries start at the genesis. */
  anchor: { seq: number; hash: string; token: string } | null;
  entries: ChainEntry[];
  checkpoints: Array<{ kid: string; token: string }>;
  /** Entries in [from, to). */
  in_range: number;
}

/** `events` holds the checkpoints (compliance's own stream); the chain is read through the audit context's AuditTrail. */
export async function buildBundle(events: EventStore, trail: Pick<AuditTrail, 'entries' | 'genesis'>, clock: Clock, stream: string, range: { from?: string; to?: string }): Promise<AuditBundle> {
  const from = range.from ? Date.parse(range.from) : -Infinity;
  const to = range.to ? Date.parse(range.to) : Infinity;
  if (from >= to) throw new InvalidParamError('from must be before to', 'from');
  const checkpoints = await checkpointsOf(events, stream);
  // The newest signed head dated before the range: entries after it link to a signature.
  let anchor = [...checkpoints].reverse().find((head) => Date.parse(head.entry_at) < from);
  let startSeq = anchor ? anchor.seq + 1 : 0;
  let chain = await trail.entries(stream, startSeq);
  // Revisions equal sequence numbers in a chain the recorder wrote; should a store differ, read it whole.
  if (chain.length > 0 && chain[0].seq !== startSeq) chain = (await trail.entries(stream)).filter((entry) => entry.seq >= startSeq);
  // Archived and trimmed (docs/adr/0024): the live chain starts after the archive's closing head, its anchor.
  if (chain.length > 0 && chain[0].seq > startSeq) {
    const found = liveAnchor(chain, checkpoints);
    anchor = found?.head;
    startSeq = chain[0].seq + (found?.skip ?? 0);
    if (found?.skip) chain = chain.slice(1);
  }
  const inRange = chain.filter((entry) => {
    const at = Date.parse(entry.at);
    return at >= from && at < to;
  });
  const lastInRange = inRange.at(-1)?.seq ?? startSeq - 1;
  // The first signed head at or after the last entry in range closes the bundle; without one the tail is unanchored.
  const closing = checkpoints.find((head) => head.seq >= lastInRange && head.seq >= startSeq);
  const endSeq = closing ? closing.seq : lastInRange;
  const entries = chain.filter((entry) => entry.seq <= endSeq);
  if (entries.length > MAX_BUNDLE_ENTRIES) throw new InvalidParamError(`the range holds more than ${MAX_BUNDLE_ENTRIES} entries with its links; ask for a shorter one`, 'to');
  return {
    format: BUNDLE_FORMAT,
    stream,
    from: range.from ?? null,
    to: range.to ?? null,
    generated_at: clock.now().toISOString(),
    genesis_hash: trail.genesis,
    anchor: anchor ? { seq: anchor.seq, hash: anchor.hash, token: anchor.token } : null,
    entries,
    checkpoints: checkpoints.filter((head) => head.seq >= startSeq && head.seq <= endSeq).map(({ kid, token }) => ({ kid, token })),
    in_range: inRange.length,
  };
}
