import type { AccessEntry } from '../domain/access-events.js';

/**
 * The access trail as other contexts read it (style.md, "Between contexts";
 * docs/adr/0065): one append-only hash chain per account (ADR 4), named by an
 * opaque chain id, read, verified, and trimmed after archiving (ADR 24). The
 * audit context publishes and implements it; compliance injects it by
 * `AUDIT_TRAIL` for its checkpoints, exports, archives and as-of replays and
 * never sees the chains' streams, their event type, the genesis constant, the
 * hash function or the recorder's journal.
 *
 * Chain ids are stable, stored text (checkpoints name them, archive folders
 * are named after them, `npm run ops -- audit:verify ID` takes one): take them
 * from `chainOf`, `chains` or `headsAfter`, and test foreign text with
 * `isChain`, never by their shape.
 */
export interface AuditTrail {
  /** The hash every chain's first entry links to. */
  readonly genesis: string;
  /** The chain of an account's requests; null: the platform's (the operator key and keys without an account). */
  chainOf(accountId: string | null): string;
  /** Whether `id` names an access chain (a folder name, an operator's argument). */
  isChain(id: string): boolean;
  /** Every chain the log holds, sorted (one scan of the chains' streams); `progress` is called after each page. */
  chains(progress?: (position: number, head: number, found: number) => void): Promise<string[]>;
  /**
   * Entries of one chain from `fromSeq` on, at most `limit`, in chain order; [] for a chain with
   * none (or none left live after archiving: the live chain then starts after the archived entries).
   */
  entries(chain: string, fromSeq?: number, limit?: number): Promise<ChainEntry[]>;
  /** The newest entry of a chain; null when it has none. */
  head(chain: string): Promise<ChainEntry | null>;
  /**
   * The newest entry of every chain that moved after log position `after`
   * (0: from the start), and the log position read up to (`after` when the
   * log has nothing newer): what a checkpoint round signs.
   */
  headsAfter(after: bigint): Promise<{ heads: Map<string, ChainEntry>; position: bigint }>;
  /**
   * Checks entries as a continuous piece of a chain: every hash recomputes,
   * every entry names its predecessor's hash, sequence numbers have no gap.
   * From the genesis by default (seq 0); `from` for a piece that continues
   * after an archived or signed entry: the first entry's expected seq and the
   * hash it must link to.
   */
  verify(entries: ReadonlyArray<ChainEntry>, from?: { seq: number; prevHash: string }): ChainCheck;
  /**
   * Drops the chain's entries up to `throughSeq` from the live store, once
   * they are archived (ADR 24), but never its newest entry: it stays the
   * head the recorder links the next entry to.
   */
  trim(chain: string, throughSeq: number): Promise<void>;
  /**
   * Makes every entry already answered readable before the chains are read:
   * in an api process, the entries its recorder still holds; in the operator
   * CLI, what a stopped api process left in its journal. `held` when a running
   * api process holds its journal (it stores its entries within ~25 ms).
   */
  settle(): Promise<'settled' | 'held'>;
}

/** Nest token of the AuditTrail (AuditModule in the api role, AuditTrailModule elsewhere). */
export const AUDIT_TRAIL = Symbol('AuditTrail');

/** One entry of a chain as stored: the request, its place in the chain, its predecessor's hash and its own. */
export type ChainEntry = AccessEntry & { seq: number; prev_hash: string; hash: string };

/**
 * A verdict on a piece of chain. `brokenAt`: the index in the entries given;
 * `seq`: the sequence number found there; `fault`: a gap in the sequence, a
 * broken link to the previous entry (removed or reordered), or a hash that no
 * longer recomputes (edited).
 */
export type ChainCheck =
  | { ok: true; entries: number; head: string }
  | { ok: false; entries: number; brokenAt: number; seq: number; expectedSeq: number; fault: 'gap' | 'link' | 'edit'; reason: string };
