import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CLOCK, RATE_LIMITER, type Clock, type RateLimiter } from '../../../../platform/src/index.js';
import { callingKey } from '../../authentication/calling-key.js';
import { dailyLimitOf, QUOTA_WINDOW_MS, quotaKey } from '../../quota.js';
import { KeyDirectory, type KeyRecord } from '../../authentication/key-directory.js';

@ApiTags('keys')
@ApiSecurity('api_key')
@Controller('v2')
export class GetMeController {
  constructor(
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly directory: KeyDirectory,
  ) {}

  @Get('me')
  @ApiOperation({ summary: 'The calling key: account, prefix, tier, daily limit and current usage' })
  async me(@Req() request: FastifyRequest) {
    const record = callingKey(request);
    return {
      account_id: record.account_id,
      key_prefix: record.key_prefix,
      name: record.name,
      email: record.email,
      tier: this.directory.tierOf(record),
      daily_limit: dailyLimitOf(this.directory.tierOf(record)),
      created_at: record.issued_at,
      expires_at: record.expires_at,
      usage: await this.usageOf(record),
    };
  }

  @Get('usage')
  @ApiOperation({ summary: 'Consumption against the plan over the rolling 24 h window' })
  async usage(@Req() request: FastifyRequest) {
    const record = callingKey(request);
    return { tier: this.directory.tierOf(record), ...(await this.usageOf(record)) };
  }

  /** This request has been counted already: `used` includes it. */
  private async usageOf(record: KeyRecord) {
    const limit = dailyLimitOf(this.directory.tierOf(record));
    const decision = await this.limiter.peek(quotaKey(record.key_id), { limit, windowMs: QUOTA_WINDOW_MS }, this.clock.now());
    return {
      window: 'rolling_24h',
      daily_limit: limit,
      used: limit - decision.remaining,
      remaining: decision.remaining,
      reset_at: decision.resetAt.toISOString(),
    };
  }
}
