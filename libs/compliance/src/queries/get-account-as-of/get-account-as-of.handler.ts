import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AccountNotFoundError } from '../../../../accounts/src/index.js';
import { AUDIT_TRAIL, type AuditTrail } from '../../../../audit/src/index.js';
import { EVENT_STORE, EventRegistry, type EventStore } from '../../../../platform/src/index.js';
import { AsOfRegistry, replayAsOf, type AsOfAnswer } from '../../replay/as-of-replay.js';

/** GET /v2/admin/accounts/{accountId}/as-of?at=. */
export class GetAccountAsOfQuery extends Query<AsOfAnswer> {
  constructor(
    readonly accountId: string,
    readonly at: Date,
  ) {
    super();
  }
}

/** Issue 14: what an account could do, and did, at an instant, folded from the log by its contexts' contributions (docs/adr/0023). */
@QueryHandler(GetAccountAsOfQuery)
export class GetAccountAsOfHandler implements IQueryHandler<GetAccountAsOfQuery> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly contributors: AsOfRegistry,
    @Inject(AUDIT_TRAIL) private readonly trail: AuditTrail,
  ) {}

  async execute({ accountId, at }: GetAccountAsOfQuery): Promise<AsOfAnswer> {
    // Requests this process answered are in the access chains before they are read.
    await this.trail.settle();
    const answer = await replayAsOf(this.events, this.registry, this.contributors, this.trail, accountId, at);
    if (answer.state.account === null && answer.changes.length === 0 && answer.access.total === 0) throw new AccountNotFoundError(accountId);
    return answer;
  }
}
