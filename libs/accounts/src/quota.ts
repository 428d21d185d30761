import type { Tier } from './domain/api-key.js';

/** interface.md, "Limits": requests per rolling 24 h, per key. */
export const DAILY_LIMITS: Record<Tier, number> = { free: 100, basic: 5_000, pro: 20_000, enterprise: 100_000 };
export const QUOTA_WINDOW_MS = 24 * 60 * 60 * 1000;

export function dailyLimitOf(tier: Tier): number {
  return DAILY_LIMITS[tier];
}

/** The rate-limiter key of a key's daily quota. */
export function quotaKey(keyId: string): string {
  return `quota:${keyId}`;
}
