import type { OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Clock, Config, EventRegistry, EventStore, JsonLogger } from '../../../platform/src/index.js';
import type { AuditTrail } from '../../../audit/src/index.js';
import type { CheckpointWriter } from '../checkpoints/checkpoint-writer.js';
import { killAtStep, retentionStreams, runRetention } from './retention-run.js';
import { RetentionLease } from './retention-lease.js';

/**
 * The archive job in the worker role (docs/adr/0024): every
 * AUDIT_RETENTION_INTERVAL_S seconds (0: off), under the lease of the
 * `audit_retention` stream, each closed month older than AUDIT_LIVE_WINDOW_S
 * of every access chain goes to ARCHIVE_DIR and leaves the live store. The
 * job reads its own clock: the process's, moved by
 * AUDIT_RETENTION_CLOCK_OFFSET_S outside production. Runs never overlap in
 * this process; a run that fails is logged, the next one finishes it.
 */
export class RetentionScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  private running?: Promise<unknown>;
  private readonly lease: RetentionLease;
  private readonly clock: Clock;

  constructor(
    private readonly events: EventStore,
    registry: EventRegistry,
    private readonly trail: AuditTrail,
    private readonly writer: Pick<CheckpointWriter, 'signEntry'>,
    clock: Clock,
    private readonly config: Pick<Config, 'archiveDir' | 'auditLiveWindowS' | 'auditRetentionIntervalS' | 'auditRetentionClockOffsetS' | 'auditCheckpointIntervalS' | 'auditArchiveTestKillAt'>,
    private readonly logger: Pick<JsonLogger, 'info' | 'warn'>,
    role = 'worker',
  ) {
    const offsetMs = config.auditRetentionClockOffsetS * 1000;
    this.clock = { now: () => new Date(clock.now().getTime() + offsetMs) };
    // The lease runs on the process's own clock, which every holder shares.
    this.lease = new RetentionLease(events, registry, clock, role);
  }

  onApplicationBootstrap(): void {
    if (this.config.auditRetentionIntervalS <= 0) return;
    this.timer = setInterval(() => {
      this.running ??= this.runOnce()
        .catch((error: unknown) => this.logger.warn({ msg: 'audit archive run failed; the next run finishes it', err: error instanceof Error ? error.message : String(error) }))
        .finally(() => {
          this.running = undefined;
        });
    }, this.config.auditRetentionIntervalS * 1000);
    this.timer.unref();
  }

  /** One run now (the interval's tick). */
  async runOnce(): Promise<Awaited<ReturnType<typeof runRetention>>> {
    const started = Date.now();
    const outcome = await runRetention(
      {
        events: this.events,
        trail: this.trail,
        writer: this.writer,
        lease: this.lease,
        streams: () => retentionStreams(this.events, this.trail, this.config.archiveDir, this.config.auditCheckpointIntervalS > 0),
        progress: (segment) => this.logger.info({ event: 'audit.archive.segment', stream: segment.stream, month: segment.month, part: segment.part, entries: segment.entries, first_seq: segment.first_seq, last_seq: segment.last_seq }),
      },
      { archiveDir: this.config.archiveDir, liveWindowMs: this.config.auditLiveWindowS * 1000, now: this.clock.now(), onStep: killAtStep(this.config.auditArchiveTestKillAt) },
    );
    if (outcome.status === 'held') this.logger.info({ event: 'audit.archive.skipped', held_by: outcome.held_by, until: outcome.until });
    else this.logger.info({ event: 'audit.archive.run', run_id: outcome.run_id, streams: outcome.streams, segments: outcome.segments.length, entries: outcome.entries, ms: Date.now() - started });
    return outcome;
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
