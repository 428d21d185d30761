import { Inject, Injectable, Module } from '@nestjs/common';
import { AUDIT_TRAIL, type AuditTrail } from '../../../audit/src/index.js';
import type { JobKind } from '../../../jobs/src/index.js';
import { CLOCK, EVENT_STORE, type Clock, type EventStore } from '../../../platform/src/index.js';
import { CheckpointScheduler } from '../checkpoints/checkpoint-scheduler.js';
import { CheckpointSignerModule } from '../checkpoints/checkpoint-signer.module.js';
import { buildBundle } from '../export/audit-bundle.js';

/** What an `audit.export` job carries: the calling account and the window, as GET /v2/banking/audit-log/export takes them. */
export interface AuditExportInput {
  account_id: string;
  from?: string;
  to?: string;
}

/**
 * GET /v2/banking/audit-log/export as a job (`Prefer: respond-async`), run by
 * a worker: the chain's head signed now, then the same bundle the
 * synchronous call answers, verifiable with tools/verify-audit-bundle.mjs.
 */
@Injectable()
export class AuditExportJob implements JobKind<AuditExportInput> {
  readonly kind = 'audit.export';

  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(AUDIT_TRAIL) private readonly trail: AuditTrail,
    private readonly checkpoints: CheckpointScheduler,
  ) {}

  async run(input: AuditExportInput): Promise<Record<string, unknown>> {
    const stream = this.trail.chainOf(input.account_id);
    await this.checkpoints.signHead(stream);
    return (await buildBundle(this.events, this.trail, this.clock, stream, { from: input.from, to: input.to })) as unknown as Record<string, unknown>;
  }
}

/** The `audit.export` kind with its on-demand signer (as an api process has one), bound to the jobs worker by the composition root. */
@Module({
  imports: [CheckpointSignerModule],
  providers: [AuditExportJob],
  exports: [AuditExportJob],
})
export class AuditExportJobModule {}
