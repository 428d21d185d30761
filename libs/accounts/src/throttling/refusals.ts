import type { Tier } from '../domain/api-key.js';
import type { RateGroup } from '../domain/rate-overrides.js';

/**
 * What a 429 RATE_LIMITED for a per-minute rate says in `error.details` about
 * the limit that refused it (docs/adr/0060; the daily quota's is
 * RateLimitedError's): `scope` is whose limit it was — `tier` (the per-key rate of its tier),
 * `account` (the operator's override of that rate for the account), `ip` (a
 * per-IP throttle, whose `callers` are those without a valid key, all keyed
 * callers of the address together, or everyone) — and `limit` per `window_s`
 * seconds.
 */
export type RateLimitDetails =
  | { reason: 'rate'; scope: 'tier' | 'account'; group: RateGroup; tier: Tier; limit: number; window_s: number }
  | { reason: 'rate'; scope: 'ip'; group: string; callers: 'keyless' | 'keyed' | 'all'; limit: number; window_s: number };

/** How a group is named in a message. */
const LABELS: Record<string, string> = { route_static: 'static route image', landmark_reports: 'landmark report', public: '', other: '', daily: '' };
const requestsIn = (group: string) => `${LABELS[group] ?? group} requests`.trimStart();
const WINDOWS: Record<number, string> = { 60: 'a minute', 3600: 'an hour', 86_400: 'per rolling 24 h' };
const per = (windowS: number) => WINDOWS[windowS] ?? `in ${windowS} s`;

/** The message of a refusal, for people: which limit, how much it allows, when to come back. */
export function rateLimitMessage(details: RateLimitDetails, ip: string, retryAfterSeconds: number): string {
  const window = per(details.window_s);
  const retry = `retry in ${retryAfterSeconds} s`;
  const what = requestsIn(details.group);
  if (details.scope === 'tier') return `this key's ${details.group} rate is spent: the ${details.tier} tier allows ${details.limit} ${what} ${window}; ${retry}`;
  if (details.scope !== 'ip') return `this key's ${details.group} rate is spent: the operator set this account to ${details.limit} ${what} ${window}; ${retry}`;
  if (details.callers === 'keyed') return `too many ${what} from ${ip} across all keys: at most ${details.limit} ${window} from one address; ${retry}`;
  if (details.callers === 'keyless') return `too many ${what} from ${ip} without a valid key: at most ${details.limit} ${window} (a key has its own rates); ${retry}`;
  return `too many ${what} from ${ip}: at most ${details.limit} ${window}; ${retry}`;
}
