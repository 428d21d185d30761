import type { ChainEntry } from '../../../audit/src/index.js';
import type { SignedHead } from '../domain/checkpoint.js';

/**
 * Where the live chain starts after archiving: the signed head its first
 * entry links to (the archive's closing one), or — the chain archived up to
 * its newest entry, kept live as the recorder's head — the signed head of
 * that very entry. Then `skip` is 1: the chain proper starts after it.
 */
export function liveAnchor(chain: ReadonlyArray<ChainEntry>, heads: ReadonlyArray<SignedHead>): { head: SignedHead; skip: 0 | 1 } | undefined {
  const first = chain[0];
  if (!first || first.seq === 0) return undefined;
  const before = heads.find((head) => head.seq === first.seq - 1 && head.hash === first.prev_hash);
  if (before) return { head: before, skip: 0 };
  const itself = heads.find((head) => head.seq === first.seq && head.hash === first.hash);
  return itself ? { head: itself, skip: 1 } : undefined;
}
