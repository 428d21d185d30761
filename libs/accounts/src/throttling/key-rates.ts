import type { Config } from '../../../platform/src/index.js';
import { TIERS, type Tier } from '../domain/api-key.js';
import { RATE_GROUPS, type RateGroup, type RateOverrides } from '../domain/rate-overrides.js';

export { RATE_GROUPS, type RateGroup } from '../domain/rate-overrides.js';

type Throttles = Config['throttles'];

/**
 * How many times its group's per-IP throttle of keyless callers a key of each
 * tier may send a minute (docs/adr/0060). A key never gets less than a caller
 * without one (free: 1), and the factors grow with what the tier pays for: a
 * `pro` key plans 600 routes and 600 transit trips a minute by default.
 */
export const TIER_RATE_FACTORS: Readonly<Record<Tier, number>> = { free: 1, basic: 3, pro: 10, enterprise: 50 };

export const RATE_WINDOW_MS = 60_000;

/**
 * The request's group for per-key rates: the path as the router matches it
 * (percent-decoded). Transit is a group of its own for keys; for callers
 * without a key it shares the routing throttle, as it always has.
 */
export function rateGroupOf(path: string): RateGroup {
  if (path === '/v2/route/transit' || path.startsWith('/v2/route/transit/') || path.startsWith('/v2/transit/')) return 'transit';
  if (path === '/v2/route' || path.startsWith('/v2/route/')) return 'routing';
  if (path.startsWith('/v2/navigate/') || path.startsWith('/v2/navigation/')) return 'navigation';
  if (path.startsWith('/v2/language/')) return 'language';
  return 'other';
}

/** The group's per-IP throttle of callers without a key per minute: the base its tiers multiply. */
export function groupBaseRate(group: RateGroup, throttles: Throttles): number {
  switch (group) {
    case 'routing':
    case 'transit':
      return throttles.routing;
    case 'navigation':
      return throttles.navigation;
    case 'language':
      return throttles.language;
    case 'other':
      return throttles.public;
    default: {
      const _exhaustive: never = group;
      return _exhaustive;
    }
  }
}

export interface KeyRate {
  group: RateGroup;
  /** Requests a minute, for every key of the account together (or the key alone, without an account). */
  limit: number;
  /** Where the rate comes from: the tier's factor, or the operator's override for the account. */
  source: 'tier' | 'override';
}

/** A key's per-minute rate in a group: its account's override if the operator set one, else its tier's. */
export function keyRateOf(group: RateGroup, tier: Tier, overrides: RateOverrides | undefined, throttles: Throttles): KeyRate {
  const override = overrides?.[group];
  if (override !== undefined) return { group, limit: override, source: 'override' };
  return { group, limit: TIER_RATE_FACTORS[tier] * groupBaseRate(group, throttles), source: 'tier' };
}

/**
 * The per-IP ceiling of keyed callers in a group: THROTTLE_KEYED_IP_FACTOR
 * times the group's base (200 × by default: four times an enterprise key's
 * rate), and never below the calling key's own rate, so one key is bounded by
 * its own rate alone whatever its override. What it bounds is a flood of keys
 * from one address.
 */
export function keyedIpCeiling(group: RateGroup, throttles: Throttles, keyLimit = 0): number {
  return Math.max(throttles.keyedIpFactor * groupBaseRate(group, throttles), keyLimit);
}

/** Every tier's per-minute rate in every group under this configuration (the guide's table). */
export function rateTable(throttles: Throttles): Record<Tier, Record<RateGroup, number>> {
  const table = {} as Record<Tier, Record<RateGroup, number>>;
  for (const tier of TIERS) {
    table[tier] = {} as Record<RateGroup, number>;
    for (const group of RATE_GROUPS) table[tier][group] = keyRateOf(group, tier, undefined, throttles).limit;
  }
  return table;
}

/** The rate-limiter key of a tenant's per-minute count in a group. */
export function keyRateKey(group: RateGroup, tenant: string): string {
  return `rate:${group}:${tenant}`;
}

/** The rate-limiter key of all keyed callers of one IP in a group. */
export function keyedIpKey(group: RateGroup, ip: string): string {
  return `ip:keyed:${group}:${ip}`;
}
