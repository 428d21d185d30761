import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, RATE_LIMITER, type Clock, type RateLimiter } from '../../../../platform/src/index.js';
import { KeyDirectory, type KeyRecord } from '../../authentication/key-directory.js';
import { dailyLimitOf, QUOTA_WINDOW_MS, quotaKey } from '../../quota.js';

export interface Usage {
  window: 'rolling_24h';
  daily_limit: number;
  used: number;
  remaining: number;
  reset_at: string;
}

/** A key's consumption against its plan over the rolling 24 h window (interface.md, "Limits" 1), read without counting. */
@Injectable()
export class GetUsageHandler {
  constructor(
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly directory: KeyDirectory,
  ) {}

  /** The request asking has been counted already: `used` includes it. */
  async usageOf(record: KeyRecord): Promise<Usage> {
    const limit = dailyLimitOf(this.directory.tierOf(record));
    const decision = await this.limiter.peek(quotaKey(record.key_id), { limit, windowMs: QUOTA_WINDOW_MS }, this.clock.now());
    return { window: 'rolling_24h', daily_limit: limit, used: limit - decision.remaining, remaining: decision.remaining, reset_at: decision.resetAt.toISOString() };
  }

  async execute(record: KeyRecord) {
    return { tier: this.directory.tierOf(record), ...(await this.usageOf(record)) };
  }
}
