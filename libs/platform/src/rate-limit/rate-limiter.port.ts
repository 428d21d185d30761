/**
 * The rate-limiter port: per-API-key daily quotas and per-IP throttles
 * (interface.md, "Limits"). Adapters: in-process counters (REDIS_URL unset,
 * decisions.md) and Redis (counters shared by every instance). Both pass
 * `rate-limiter.contract.ts` and count with the algorithm of `sliding-window.ts`:
 * a rolling window of fixed sub-buckets, exact to one bucket (1/1440 of the
 * window: one minute for the 24-hour quotas).
 */

export interface RateLimitRule {
  /** Requests (units of cost) allowed within any rolling window; an integer ≥ 1. */
  limit: number;
  /** Length of the rolling window in milliseconds; an integer ≥ 1. A key is meant to be used with one window. */
  windowMs: number;
}

export interface RateDecision {
  /** consume: whether this request was counted. peek: whether a consume now would be. */
  allowed: boolean;
  /** The rule's limit (X-RateLimit-Limit). */
  limit: number;
  /** Requests still allowed now, after this one if it was counted (X-RateLimit-Remaining); never negative. */
  remaining: number;
  /**
   * When remaining next increases: the moment the oldest counted bucket leaves
   * the window (X-RateLimit-Reset). `now` when nothing is counted.
   */
  resetAt: Date;
  /** 0 when allowed; otherwise how long until a request would be allowed again. */
  retryAfterMs: number;
}

export interface RateLimiter {
  /**
   * Counts one request against `key` if the window has room, atomically (also
   * across instances sharing the Redis adapter). A refused request is not counted.
   * `now` defaults to the system clock; pass the injected Clock's time.
   *
   * `cost` (an integer ≥ 1, default 1) is how many units the request counts
   * for: the items of a bulk call against a quota, the size of a body against
   * a per-IP throttle (issue 31). It is allowed when all of them fit; a cost
   * over the limit is never allowed (and `retryAfterMs` is 0: waiting does not help).
   */
  consume(key: string, rule: RateLimitRule, now?: Date, cost?: number): Promise<RateDecision>;
  /** The decision a consume would give, without counting anything. */
  peek(key: string, rule: RateLimitRule, now?: Date): Promise<RateDecision>;
  /** Forgets everything counted for `key`. */
  reset(key: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const RATE_LIMITER = Symbol('RateLimiter');
