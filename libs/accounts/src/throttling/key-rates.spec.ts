import { loadConfig } from '../../../platform/src/index.js';
import { TIERS } from '../domain/api-key.js';
import { groupBaseRate, keyedIpCeiling, keyRateOf, RATE_GROUPS, rateGroupOf, rateTable, TIER_RATE_FACTORS } from './key-rates.js';
import { rateLimitMessage } from './refusals.js';

const throttles = loadConfig({}).throttles;

describe('per-key rates (docs/adr/0060)', () => {
  it('puts each path in its group: transit apart from routing, every other /v2 path in other', () => {
    expect(
      ['/v2/route', '/v2/route/isochrone', '/v2/route/transit', '/v2/route/transit/', '/v2/transit/departures', '/v2/navigate/route', '/v2/navigation/arrival', '/v2/language/translate', '/v2/reverse', '/v2/routes'].map(
        rateGroupOf,
      ),
    ).toEqual(['routing', 'routing', 'transit', 'transit', 'transit', 'navigation', 'navigation', 'language', 'other', 'other']);
  });

  it('grows with the tier from the keyless per-IP throttle, which a free key never falls below', () => {
    const table = rateTable(throttles);
    for (const group of RATE_GROUPS) {
      expect(table.free[group]).toBe(groupBaseRate(group, throttles));
      const byTier = TIERS.map((tier) => table[tier][group]);
      expect([...byTier].sort((a, b) => a - b)).toEqual(byTier);
      expect(new Set(byTier).size).toBe(TIERS.length);
    }
    // Issue 50: a pro key plans at least 300 routes and 100 transit trips a minute by default.
    expect(table.pro.routing).toBeGreaterThanOrEqual(300);
    expect(table.pro.transit).toBeGreaterThanOrEqual(100);
    expect(table.pro).toEqual({ routing: 600, transit: 600, navigation: 1200, language: 200, other: 6000 });
  });

  it("takes an account's override before its tier's rate, group by group", () => {
    expect(keyRateOf('routing', 'free', { routing: 5000 }, throttles)).toEqual({ group: 'routing', limit: 5000, source: 'override' });
    expect(keyRateOf('transit', 'free', { routing: 5000 }, throttles)).toEqual({ group: 'transit', limit: throttles.routing * TIER_RATE_FACTORS.free, source: 'tier' });
  });

  it('puts the per-IP ceiling of keyed callers far above every tier, and never below the calling key', () => {
    for (const group of RATE_GROUPS) {
      expect(keyedIpCeiling(group, throttles)).toBeGreaterThanOrEqual(4 * rateTable(throttles).enterprise[group]);
      expect(keyedIpCeiling(group, throttles, 10_000_000)).toBe(10_000_000);
    }
  });

  it('names the limit in every refusal message', () => {
    expect(rateLimitMessage({ reason: 'rate', scope: 'tier', group: 'routing', tier: 'pro', limit: 600, window_s: 60 }, '192.0.2.1', 3)).toBe(
      "this key's routing rate is spent: the pro tier allows 600 routing requests a minute; retry in 3 s",
    );
    expect(rateLimitMessage({ reason: 'rate', scope: 'account', group: 'transit', tier: 'free', limit: 900, window_s: 60 }, '192.0.2.1', 1)).toContain('the operator set this account to 900 transit requests a minute');
    expect(rateLimitMessage({ reason: 'rate', scope: 'ip', group: 'routing', callers: 'keyed', limit: 12_000, window_s: 60 }, '192.0.2.1', 2)).toContain('from 192.0.2.1 across all keys');
    expect(rateLimitMessage({ reason: 'rate', scope: 'ip', group: 'routing', callers: 'keyless', limit: 10, window_s: 10 }, '192.0.2.1', 2)).toBe(
      'too many routing requests from 192.0.2.1 without a valid key: at most 10 in 10 s (a key has its own rates); retry in 2 s',
    );
    expect(rateLimitMessage({ reason: 'rate', scope: 'ip', group: 'route_static', callers: 'all', limit: 15, window_s: 60 }, '192.0.2.1', 4)).toBe(
      'too many static route image requests from 192.0.2.1: at most 15 a minute; retry in 4 s',
    );
  });
});
