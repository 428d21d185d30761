import { Inject } from '@nestjs/common';
import { QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { CLOCK, RATE_LIMITER, type Clock, type RateLimiter } from '../../../../platform/src/index.js';
import { KeyDirectory } from '../../public/key-directory.js';
import type { Tier } from '../../domain/api-key.js';
import { dailyLimitOf, QUOTA_WINDOW_MS, quotaKey } from '../../quota.js';
import { GetUsageQuery, type Usage } from '../../usage.query.js';

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
