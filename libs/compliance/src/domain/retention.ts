/**
 * The archive job's lease and run log (docs/adr/0024): one stream, appended
 * with the revision read, so of several workers (or a worker and the
 * operator's CLI) one runs at a time on every event-store adapter — the
 * same optimistic append that keeps checkpoint rounds single (docs/adr/0023).
 */
export const RETENTION_STREAM = 'audit_retention';

/** Who holds the lease: a worker or CLI process on a host. */
export interface RetentionHolder {
  host: string;
  pid: number;
  /** `worker`, `all-in-one`, `ops`… */
  role: string;
}

export interface AuditRetentionLeaseTaken {
  type: 'AuditRetentionLeaseTaken';
  data: { run_id: string; holder: RetentionHolder; taken_at: string; expires_at: string };
}

export interface AuditRetentionLeaseRenewed {
  type: 'AuditRetentionLeaseRenewed';
  data: { run_id: string; holder: RetentionHolder; renewed_at: string; expires_at: string };
}

export interface AuditRetentionRunEnded {
  type: 'AuditRetentionRunEnded';
  data: { run_id: string; holder: RetentionHolder; ended_at: string; outcome: 'completed' | 'failed'; segments: number; entries: number; error?: string };
}

export type RetentionEvent = AuditRetentionLeaseTaken | AuditRetentionLeaseRenewed | AuditRetentionRunEnded;

export const RETENTION_EVENT_TYPES = ['AuditRetentionLeaseTaken', 'AuditRetentionLeaseRenewed', 'AuditRetentionRunEnded'] as const;

/** Whether the stream's newest event leaves the lease to someone else: free when ended or expired, or when its holder is a dead process on this host. */
export function leaseHolder(latest: RetentionEvent | undefined, now: Date, here: { host: string; alive: (pid: number) => boolean }): { holder: RetentionHolder; until: string } | null {
  if (!latest) return null;
  switch (latest.type) {
    case 'AuditRetentionRunEnded':
      return null;
    case 'AuditRetentionLeaseTaken':
    case 'AuditRetentionLeaseRenewed': {
      const { holder, expires_at } = latest.data;
      if (Date.parse(expires_at) <= now.getTime()) return null;
      // A holder SIGKILLed on this host ended nothing; its pid answers no more, and its lease need not run out.
      if (holder.host === here.host && !here.alive(holder.pid)) return null;
      return { holder, until: expires_at };
    }
    default: {
      const _exhaustive: never = latest;
      return _exhaustive;
    }
  }
}
