import { Injectable } from '@nestjs/common';
import { KeyDirectory, type KeyRecord } from '../../authentication/key-directory.js';
import { dailyLimitOf } from '../../quota.js';
import { GetUsageHandler } from '../get-usage/get-usage.handler.js';

/** The calling key as decisions.md describes GET /v2/me: account, prefix, tier, daily limit and current usage. */
@Injectable()
export class GetMeHandler {
  constructor(
    private readonly directory: KeyDirectory,
    private readonly usage: GetUsageHandler,
  ) {}

  async execute(record: KeyRecord) {
    const tier = this.directory.tierOf(record);
    return {
      account_id: record.account_id,
      key_prefix: record.key_prefix,
      name: record.name,
      email: record.email,
      tier,
      daily_limit: dailyLimitOf(tier),
      created_at: record.issued_at,
      expires_at: record.expires_at,
      usage: await this.usage.usageOf(record),
    };
  }
}
