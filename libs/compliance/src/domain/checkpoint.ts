/**
 * A signed checkpoint: the head of one access chain (ADR 4) at an instant,
 * signed with the identity context's Ed25519 keys (ADR 16) as a compact JWS
 * whose payload is `CheckpointClaims`. Anyone holding the JWKS can check it;
 * an entry at or before the signed head cannot be removed without the chain
 * no longer reaching the signed hash (docs/adr/0023).
 */
export interface CheckpointClaims {
  typ: 'audit-checkpoint';
  /** The access chain, e.g. `access_log-acct_…`. */
  stream: string;
  /** Sequence number and hash of the chain's newest entry when signed. */
  seq: number;
  hash: string;
  /** ISO 8601 time of that newest entry. */
  entry_at: string;
  /** ISO 8601 time the checkpoint was signed. */
  signed_at: string;
}

export interface SignedHead extends CheckpointClaims {
  kid: string;
  /** Compact JWS (EdDSA) over the claims. */
  token: string;
}

export interface AuditCheckpointSigned {
  type: 'AuditCheckpointSigned';
  data: {
    signed_at: string;
    /** Log position up to which moved chains were looked for; the next round starts after it. */
    log_position: string;
    heads: SignedHead[];
    /** Signed for an export (issue 30) rather than by the periodic round; absent on rounds and on events stored before it existed. */
    on_demand?: boolean;
  };
}

export const CHECKPOINT_STREAM = 'audit_checkpoints';
export const CHECKPOINT_EVENT_TYPES = ['AuditCheckpointSigned'] as const;

export interface ChainHead {
  stream: string;
  seq: number;
  hash: string;
  entry_at: string;
}

/** Heads that moved since the last checkpoint of their chain (a chain that did not move is not signed again). */
export function movedHeads(latest: ReadonlyMap<string, ChainHead>, signed: ReadonlyMap<string, { seq: number }>): ChainHead[] {
  return [...latest.values()].filter((head) => (signed.get(head.stream)?.seq ?? -1) < head.seq).sort((a, b) => a.stream.localeCompare(b.stream));
}
