import { Query, QueryBus, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { KeyDirectory, type KeyRecord } from '../../public/key-directory.js';
import { dailyLimitOf } from '../../quota.js';
import { GetUsageQuery } from '../../usage.query.js';
import type { AnswerOf } from '../../../../platform/src/index.js';
import type { MeAnswerSchema } from './get-me.answer.js';

export type MeView = AnswerOf<typeof MeAnswerSchema>;

/** GET /v2/me: the calling key. */
export class GetMeQuery extends Query<MeView> {
  constructor(readonly record: KeyRecord) {
    super();
  }
}

/** The calling key as decisions.md describes GET /v2/me: account, prefix, tier, daily limit and current usage (GET /v2/usage's, through the bus). */
@QueryHandler(GetMeQuery)
export class GetMeHandler implements IQueryHandler<GetMeQuery> {
  constructor(
    private readonly directory: KeyDirectory,
    private readonly queries: QueryBus,
  ) {}

  async execute({ record }: GetMeQuery): Promise<MeView> {
    const tier = this.directory.tierOf(record);
    const { tier: _tier, ...usage } = await this.queries.execute(new GetUsageQuery(record));
    return {
      account_id: record.account_id,
      key_prefix: record.key_prefix,
      name: record.name,
      email: record.email,
      tier,
      daily_limit: dailyLimitOf(tier),
      created_at: record.issued_at,
      expires_at: record.expires_at,
      usage,
    };
  }
}
