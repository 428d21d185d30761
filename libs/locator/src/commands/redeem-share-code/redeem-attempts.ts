import { Inject, Injectable } from '@nestjs/common';
import { CLOCK, RATE_LIMITER, type Clock, type RateLimiter, type RateLimitRule } from '../../../../platform/src/index.js';
import { RedeemThrottledError } from '../../domain/errors.js';

const FIFTEEN_MINUTES_MS = 15 * 60_000;
/** Wrong codes per account: a person mistypes a few, a guesser needs billions (domain/share-code.ts). */
export const FAILED_REDEMPTIONS_PER_ACCOUNT: RateLimitRule = { limit: 10, windowMs: FIFTEEN_MINUTES_MS };
/** Wrong codes per client IP, whatever accounts it signs in as: generous enough for a household or an office behind one address. */
export const FAILED_REDEMPTIONS_PER_IP: RateLimitRule = { limit: 50, windowMs: FIFTEEN_MINUTES_MS };

/**
 * Throttles guessing at share codes (issue #18): failed redemptions are
 * counted per account and per client IP on the shared rate limiter (Redis
 * when configured, so the limits hold across instances). Once either is
 * spent, every redemption from there is refused with 429 RATE_LIMITED and
 * Retry-After before any code is looked at, so a guess can no longer tell.
 */
@Injectable()
export class RedeemAttempts {
  constructor(
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async check(accountId: string, ip: string): Promise<void> {
    const now = this.clock.now();
    for (const [key, rule] of this.counters(accountId, ip)) {
      const decision = await this.limiter.peek(key, rule, now);
      if (!decision.allowed) throw new RedeemThrottledError(Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
    }
  }

  async failed(accountId: string, ip: string): Promise<void> {
    const now = this.clock.now();
    for (const [key, rule] of this.counters(accountId, ip)) await this.limiter.consume(key, rule, now);
  }

  private counters(accountId: string, ip: string): Array<[string, RateLimitRule]> {
    return [
      [`locator-redeem-failures:account:${accountId}`, FAILED_REDEMPTIONS_PER_ACCOUNT],
      [`locator-redeem-failures:ip:${ip}`, FAILED_REDEMPTIONS_PER_IP],
    ];
  }
}
