/**
 * The endpoint groups a key's per-minute rates are counted in (docs/adr/0060;
 * the rates themselves, by tier, are `throttling/key-rates.ts`): routing
 * (`/v2/route`, `/v2/route/*` but transit), transit (`/v2/route/transit`,
 * `/v2/transit/*`), navigation (`/v2/navigate/*`, `/v2/navigation/*`),
 * language (`/v2/language/*`) and `other`: every other `/v2` endpoint.
 */
export const RATE_GROUPS = ['routing', 'transit', 'navigation', 'language', 'other'] as const;
export type RateGroup = (typeof RATE_GROUPS)[number];

/** An operator's per-minute rates for one account, by group; a group left out keeps its tier's rate. */
export type RateOverrides = Partial<Record<RateGroup, number>>;

/** The largest per-minute rate an override may set (a million a minute: far above what one process serves). */
export const MAX_RATE_OVERRIDE = 1_000_000;

export function isRateGroup(value: string): value is RateGroup {
  return (RATE_GROUPS as readonly string[]).includes(value);
}

/** An override's rates in the groups' order, so the same overrides are stored and answered alike. */
export function normaliseRateOverrides(rates: RateOverrides): RateOverrides {
  const normalised: RateOverrides = {};
  for (const group of RATE_GROUPS) {
    const rate = rates[group];
    if (rate !== undefined) normalised[group] = rate;
  }
  return normalised;
}
