import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, RATE_LIMITER, type Clock, type RateLimiter } from '../../../../platform/src/index.js';
import { KeyDirectory, type KeyRecord } from '../../public/key-directory.js';
import type { Tier } from '../../domain/api-key.js';
import { dailyLimitOf, QUOTA_WINDOW_MS, quotaKey } from '../../quota.js';

export interface Usage {
  window: 'rolling_24h';
  daily_limit: number;
  used: number;
  remaining: number;
  reset_at: string;
}

/** GET /v2/usage: the calling key's tier and its consumption. */
export class GetUsageQuery extends Query<{ tier: Tier } & Usage> {
  constructor(readonly record: KeyRecord) {
    super();
  }
}

/** A key's consumption against its plan over the rolling 24 h window (interface.md, "Limits" 1), read without counting. */
@QueryHandler(GetUsageQuery)
export class GetUsageHandler implements IQueryHandler<GetUsageQuery> {
  constructor(
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly directory: KeyDirectory,
  ) {}

  /** The request asking has been counted already: `used` includes it. */
  async execute({ record }: GetUsageQuery): Promise<{ tier: Tier } & Usage> {
    const tier = this.directory.tierOf(record);
    const limit = dailyLimitOf(tier);
    const decision = await this.limiter.peek(quotaKey(record.key_id), { limit, windowMs: QUOTA_WINDOW_MS }, this.clock.now());
    return { tier, window: 'rolling_24h', daily_limit: limit, used: limit - decision.remaining, remaining: decision.remaining, reset_at: decision.resetAt.toISOString() };
  }
}
