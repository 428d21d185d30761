import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { AccountNotFoundError } from '../../../../accounts/src/index.js';
import { AUDIT_TRAIL, type AuditTrail } from '../../../../audit/src/index.js';
import { EVENT_STORE, EventRegistry, InvalidParamError, type EventStore, type AnswerOf } from '../../../../platform/src/index.js';
import { AsOfRegistry, replayAsOf } from '../../replay/as-of-replay.js';
import type { ChangesAnswerSchema } from './get-account-changes.answer.js';

export type ChangesAnswer = AnswerOf<typeof ChangesAnswerSchema>;

/** GET /v2/compliance/changes?from=&to= (issue 30). */
export class GetAccountChangesQuery extends Query<ChangesAnswer> {
  constructor(
    readonly accountId: string,
    readonly from: Date,
    readonly to: Date,
  ) {
    super();
  }
}

/** What changed in an account between two instants: the as-of replay at `to`, restricted to what happened after `from`. */
@QueryHandler(GetAccountChangesQuery)
export class GetAccountChangesHandler implements IQueryHandler<GetAccountChangesQuery> {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    private readonly registry: EventRegistry,
    private readonly contributors: AsOfRegistry,
    @Inject(AUDIT_TRAIL) private readonly trail: AuditTrail,
  ) {}

  async execute({ accountId, from, to }: GetAccountChangesQuery): Promise<ChangesAnswer> {
    if (from.getTime() >= to.getTime()) throw new InvalidParamError('from must be before to', 'from');
    await this.trail.settle();
    const answer = await replayAsOf(this.events, this.registry, this.contributors, this.trail, accountId, to);
    if (answer.state.account === null && answer.changes.length === 0 && answer.access.total === 0) throw new AccountNotFoundError(accountId);
    const after = (at: string) => Date.parse(at) > from.getTime();
    return {
      account_id: accountId,
      from: from.toISOString(),
      to: to.toISOString(),
      changes: answer.changes.filter((change) => after(change.at)),
      operator_actions: answer.operator_actions.filter((action) => after(action.at)),
    };
  }
}
