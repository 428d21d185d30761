import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AUDIT_TRAIL, type AuditTrail } from '../../../../audit/src/index.js';
import { CLOCK, EVENT_STORE, type Clock, type EventStore } from '../../../../platform/src/index.js';
import { CheckpointScheduler } from '../../checkpoints/checkpoint-scheduler.js';
import { buildBundle, type AuditBundle } from '../../export/audit-bundle.js';

/**
 * GET /v2/banking/audit-log/export (the calling account's chain) and
 * GET /v2/admin/audit/export (any account's, `accountId` null for the platform's).
 */
export class ExportAuditBundleQuery extends Query<AuditBundle> {
  constructor(
    readonly accountId: string | null,
    readonly window: { from?: string; to?: string },
  ) {
    super();
  }
}

/** Issue 14: one access chain as a bundle a third party verifies with the JWKS alone. */
@QueryHandler(ExportAuditBundleQuery)
export class ExportAuditBundleHandler implements IQueryHandler<ExportAuditBundleQuery> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(AUDIT_TRAIL) private readonly trail: AuditTrail,
    private readonly checkpoints: CheckpointScheduler,
  ) {}

  async execute({ accountId, window }: ExportAuditBundleQuery): Promise<AuditBundle> {
    await this.trail.settle();
    const stream = this.trail.chainOf(accountId);
    // Signed to its end (issue 30): the chain's newest entry gets a checkpoint now, so the bundle closes on a signature.
    await this.checkpoints.signHead(stream);
    return buildBundle(this.events, this.trail, this.clock, stream, window);
  }
}
