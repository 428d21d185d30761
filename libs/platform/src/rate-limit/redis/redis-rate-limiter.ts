import { Redis } from 'ioredis';
import { BackendUnavailableError } from '../../errors.js';
import { bucketSizeMs, checkKey, checkRateLimitCall, toDecision } from '../sliding-window.js';
import type { RateDecision, RateLimitRule, RateLimiter } from '../rate-limiter.port.js';
import { SLIDING_WINDOW_LUA } from './sliding-window.lua.js';

export interface RedisRateLimiterOptions {
  redisUrl: string;
  /** Prepended to every key; default 'ratelimit:'. */
  prefix?: string;
  /** A command without an answer after this long fails (BackendUnavailableError); default 2000. */
  commandTimeoutMs?: number;
  /** Connection errors no caller receives (reconnect attempts); default console.error. */
  onError?: (error: unknown) => void;
}

type ScriptReply = [allowed: number, counted: number, resetAtMs: number, roomAtMs: number];

interface SlidingWindowCommand {
  slidingWindowLimit(key: string, nowMs: string, limit: string, windowMs: string, bucketMs: string, consume: '1' | '0', cost: string): Promise<ScriptReply>;
}

/**
 * Rate-limit counters in Redis, shared by every instance (decisions.md:
 * REDIS_URL set). One hash per key holds its buckets (`sliding-window.ts`), and
 * one Lua script does the check and the increment atomically on the server, so
 * "exactly `limit`" holds across instances. ioredis sends it with EVALSHA and
 * falls back to EVAL when the server does not have it cached (defineCommand).
 *
 * Time: the caller's `now`, not Redis TIME, so the same code runs under a
 * test's clock and the injected Clock in production. The trade-off: instances
 * must keep their clocks in step (NTP). A skew of s milliseconds shifts when
 * requests age out by up to s (an instance ahead frees capacity early by its
 * lead); a request stamped earlier than the key's newest bucket is counted in
 * that bucket, so skew never lets a request escape counting.
 *
 * Failure: a command unanswered within `commandTimeoutMs`, or with Redis
 * unreachable (one reconnect attempt per command), rejects with
 * BackendUnavailableError; whether to fail open or closed is the caller's choice.
 */
export class RedisRateLimiter implements RateLimiter {
  private closed = false;
  private closing?: Promise<void>;

  private constructor(
    private readonly redis: Redis & SlidingWindowCommand,
    private readonly prefix: string,
  ) {}

  /** Connects first, so a wrong URL or a Redis that is down fails at start-up, not on the first request. */
  static async open(options: RedisRateLimiterOptions): Promise<RedisRateLimiter> {
    const onError = options.onError ?? ((error: unknown) => console.error('[redis-rate-limiter]', error));
    let connected = false;
    let connectError: unknown;
    const redis = new Redis(options.redisUrl, {
      lazyConnect: true,
      maxRetriesPerRequest: 1,
      commandTimeout: options.commandTimeoutMs ?? 2000,
      // No retries until the first connection succeeds: a failed open leaves nothing
      // behind (disconnecting a socket that never opened would keep a 2 s timer alive).
      retryStrategy: (times) => (connected ? Math.min(times * 50, 2000) : null),
    });
    // Before connecting, the rejected connect() reports the error; afterwards nobody else would see it.
    redis.on('error', (error) => {
      if (connected) onError(error);
      else connectError = error;
    });
    try {
      await redis.connect();
    } catch (error) {
      if (redis.status !== 'end') redis.disconnect();
      throw new BackendUnavailableError(`Redis is unreachable: ${reason(connectError ?? error)}`);
    }
    connected = true;
    redis.defineCommand('slidingWindowLimit', { numberOfKeys: 1, lua: SLIDING_WINDOW_LUA });
    return new RedisRateLimiter(redis as Redis & SlidingWindowCommand, options.prefix ?? 'ratelimit:');
  }

  consume(key: string, rule: RateLimitRule, now: Date = new Date(), cost = 1): Promise<RateDecision> {
    return this.decide(key, rule, now, true, cost);
  }

  peek(key: string, rule: RateLimitRule, now: Date = new Date()): Promise<RateDecision> {
    return this.decide(key, rule, now, false);
  }

  async reset(key: string): Promise<void> {
    this.assertOpen();
    checkKey(key);
    await this.call(() => this.redis.del(this.prefix + key));
  }

  async ping(): Promise<void> {
    this.assertOpen();
    await this.call(() => this.redis.ping());
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      try {
        await this.redis.quit();
      } catch {
        this.redis.disconnect();
      }
    })();
    return this.closing;
  }

  private async decide(key: string, rule: RateLimitRule, now: Date, consume: boolean, cost = 1): Promise<RateDecision> {
    this.assertOpen();
    const nowMs = checkRateLimitCall(key, rule, now, cost);
    const [allowed, counted, resetAtMs, roomAtMs] = await this.call(() =>
      this.redis.slidingWindowLimit(
        this.prefix + key,
        String(nowMs),
        String(rule.limit),
        String(rule.windowMs),
        String(bucketSizeMs(rule.windowMs)),
        consume ? '1' : '0',
        String(cost),
      ),
    );
    // roomAtMs 0: the cost is over the limit and no wait makes room.
    return toDecision(rule, nowMs, allowed === 1, counted, counted > 0 ? resetAtMs : undefined, allowed === 1 || roomAtMs === 0 ? undefined : roomAtMs);
  }

  private async call<T>(command: () => Promise<T>): Promise<T> {
    try {
      return await command();
    } catch (error) {
      throw new BackendUnavailableError(`Redis rate-limit counters failed: ${reason(error)}`);
    }
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The rate limiter is closed');
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
