import { Query } from '@nestjs/cqrs';
import type { Tier } from './domain/api-key.js';
import type { KeyRecord } from './public/key-directory.js';

// Asked by GET /v2/usage and GET /v2/me (which repeats it under `usage`): handled in queries/get-usage.

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

