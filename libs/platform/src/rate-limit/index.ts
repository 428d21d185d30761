import path from 'node:path';
import { EmbeddedRateLimiter } from './embedded/embedded-rate-limiter.js';
import type { RateDecision, RateLimitRule, RateLimiter } from './rate-limiter.port.js';
import { RedisRateLimiter } from './redis/redis-rate-limiter.js';

export * from './rate-limiter.port.js';
export { BUCKETS_PER_WINDOW, bucketSizeMs } from './sliding-window.js';
export { InProcessRateLimiter, type InProcessRateLimiterOptions } from './embedded/in-process-rate-limiter.js';
export { EmbeddedRateLimiter, type EmbeddedRateLimiterOptions } from './embedded/embedded-rate-limiter.js';
export { RedisRateLimiter, type RedisRateLimiterOptions } from './redis/redis-rate-limiter.js';
export * from './concurrency-limiter.js';

export interface RateLimiterOptions {
  /** REDIS_URL; when set, the counters live in Redis and are shared by every instance. */
  redisUrl?: string;
  /** Redis key prefix; default 'ratelimit:'. */
  prefix?: string;
  /** DATA_DIR; without Redis the counters are journaled in `<dataDir>/rate-limits`. */
  dataDir: string;
  onError?: (error: unknown) => void;
}

/** Redis when a URL is configured, in-process counters journaled under DATA_DIR otherwise (decisions.md, REDIS_URL). */
export async function openRateLimiter(options: RateLimiterOptions): Promise<RateLimiter> {
  if (options.redisUrl) {
    return RedisRateLimiter.open({ redisUrl: options.redisUrl, prefix: options.prefix, onError: options.onError });
  }
  return EmbeddedRateLimiter.open(path.join(options.dataDir, 'rate-limits'), { onError: options.onError });
}

// Plan tiers and their daily limits belong to the accounts context (libs/accounts/src/quota.ts).

export interface RateLimitHeaders {
  'X-RateLimit-Limit': string;
  'X-RateLimit-Remaining': string;
  'X-RateLimit-Reset': string;
}

/**
 * The three headers every response carries (interface.md, "Limits" 2). Reset is
 * in Unix seconds, rounded up, so a client that waits until then is not early.
 */
export function rateLimitHeaders(decision: RateDecision): RateLimitHeaders {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': String(Math.ceil(decision.resetAt.getTime() / 1000)),
  };
}
