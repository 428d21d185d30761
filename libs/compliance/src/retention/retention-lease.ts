import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { ConcurrencyError, StreamNotFoundError, type Clock, type EventRegistry, type EventStore } from '../../../platform/src/index.js';
import { leaseHolder, RETENTION_STREAM, type RetentionEvent, type RetentionHolder } from '../domain/retention.js';

/** How long a lease holds without renewal; a run renews it after each segment once half of it has passed. */
export const RETENTION_LEASE_MS = 10 * 60_000;

/** Whether a process of this host is alive (EPERM: it is, and someone else's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lease lost to another holder (ours ran out and it took over): the run stops where it is, which the next run finishes. */
export class RetentionLeaseLostError extends Error {}

/**
 * The archive job's lease (docs/adr/0024) on the `audit_retention` stream:
 * taken, renewed and ended by appends with the revision read, so two
 * processes that both see it free store one `AuditRetentionLeaseTaken`; the
 * other's append conflicts and it stands down. A holder that dies holds it
 * until `expires_at`, or, on the same host, only while its pid lives.
 */
export class RetentionLease {
  private readonly host = hostname();

  constructor(
    private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly clock: Clock,
    private readonly role: string,
    private readonly ttlMs = RETENTION_LEASE_MS,
    private readonly alive: (pid: number) => boolean = processAlive,
  ) {}

  /** The lease, or who holds it and until when. */
  async acquire(): Promise<HeldRetentionLease | { held_by: RetentionHolder; until: string }> {
    const { latest, revision } = await this.latest();
    const now = this.clock.now();
    const held = leaseHolder(latest, now, { host: this.host, alive: this.alive });
    if (held) return { held_by: held.holder, until: held.until };
    const holder: RetentionHolder = { host: this.host, pid: process.pid, role: this.role };
    const runId = randomUUID();
    const expires = new Date(now.getTime() + this.ttlMs);
    try {
      const result = await this.append([{ type: 'AuditRetentionLeaseTaken', data: { run_id: runId, holder, taken_at: now.toISOString(), expires_at: expires.toISOString() } }], revision);
      return new HeldRetentionLease(this, runId, holder, result, expires);
    } catch (error) {
      if (!(error instanceof ConcurrencyError)) throw error;
      const again = await this.latest();
      const other = again.latest && again.latest.type !== 'AuditRetentionRunEnded' ? again.latest.data : undefined;
      return { held_by: other?.holder ?? holder, until: other?.expires_at ?? expires.toISOString() };
    }
  }

  /** @internal for HeldRetentionLease */
  now(): Date {
    return this.clock.now();
  }

  /** @internal for HeldRetentionLease */
  get ttl(): number {
    return this.ttlMs;
  }

  /** @internal for HeldRetentionLease: appends with the expected revision; a conflict is a ConcurrencyError. */
  async append(events: RetentionEvent[], expected: bigint | 'no_stream'): Promise<bigint> {
    const result = await this.events.append(
      RETENTION_STREAM,
      events.map((event) => ({ type: event.type, data: event.data as unknown as Record<string, unknown>, metadata: this.registry.metadataFor(event.type) })),
      expected,
    );
    return result.nextExpectedRevision;
  }

  /** The stream's newest event and its revision. */
  async latest(): Promise<{ latest?: RetentionEvent; revision: bigint | 'no_stream' }> {
    try {
      const [event] = await this.events.readStream(RETENTION_STREAM, { direction: 'backwards', maxCount: 1 });
      return event ? { latest: this.registry.upcast(event) as unknown as RetentionEvent, revision: event.revision } : { revision: 'no_stream' };
    } catch (error) {
      if (error instanceof StreamNotFoundError) return { revision: 'no_stream' };
      throw error;
    }
  }
}

/** A lease this process holds: renewed between segments, ended with the run's outcome. */
export class HeldRetentionLease {
  constructor(
    private readonly lease: RetentionLease,
    readonly runId: string,
    readonly holder: RetentionHolder,
    private revision: bigint,
    private expires: Date,
  ) {}

  /** Renews once half the lease has passed; throws RetentionLeaseLostError when another holder took it. */
  async renewIfDue(): Promise<void> {
    const now = this.lease.now();
    if (this.expires.getTime() - now.getTime() > this.lease.ttl / 2) return;
    const expires = new Date(now.getTime() + this.lease.ttl);
    try {
      this.revision = await this.lease.append([{ type: 'AuditRetentionLeaseRenewed', data: { run_id: this.runId, holder: this.holder, renewed_at: now.toISOString(), expires_at: expires.toISOString() } }], this.revision);
      this.expires = expires;
    } catch (error) {
      if (error instanceof ConcurrencyError) throw new RetentionLeaseLostError(`the archive lease of run ${this.runId} was taken by another process`);
      throw error;
    }
  }

  /** Records the outcome and lets the lease go; false when another holder had taken it meanwhile. */
  async end(outcome: { outcome: 'completed' | 'failed'; segments: number; entries: number; error?: string }): Promise<boolean> {
    try {
      this.revision = await this.lease.append([{ type: 'AuditRetentionRunEnded', data: { run_id: this.runId, holder: this.holder, ended_at: this.lease.now().toISOString(), ...outcome } }], this.revision);
      return true;
    } catch (error) {
      if (error instanceof ConcurrencyError) return false;
      throw error;
    }
  }
}
