import { BucketWindow, bucketSizeMs, checkKey, checkRateLimitCall, toDecision } from '../sliding-window.js';
import type { RateDecision, RateLimitRule, RateLimiter } from '../rate-limiter.port.js';

export interface InProcessRateLimiterOptions {
  /** How often keys whose window has emptied are evicted; default one minute. */
  sweepIntervalMs?: number;
}

/**
 * Rate-limit counters in this process's memory (decisions.md: REDIS_URL unset,
 * "in-process counters"). They are not shared: two processes each allow the
 * full limit. On their own they are forgotten by a restart; the service runs
 * them journaled (`EmbeddedRateLimiter`, which extends this class through the
 * `recorded`/`forgotten` hooks). Run several instances only with REDIS_URL set.
 *
 * Atomicity: consume reads and updates a key's `BucketWindow` synchronously,
 * with no await in between, so concurrent async callers are serialized by the
 * event loop.
 *
 * Memory: a key holds at most min(limit, 1441) buckets (`sliding-window.ts`).
 * Keys whose every bucket has left the window are evicted by a periodic sweep
 * (an unref'd timer: it never keeps the process alive) and on their next use.
 * The sweep judges "empty" by the latest `now` any call has passed, not by the
 * system clock, so tests that control time are not disturbed by it.
 */
export class InProcessRateLimiter implements RateLimiter {
  protected readonly windows = new Map<string, BucketWindow>();
  /** Latest `now` seen by any call: the sweep's clock. */
  private latestMs = -Infinity;
  private readonly timer: NodeJS.Timeout;
  protected closed = false;

  constructor(options: InProcessRateLimiterOptions = {}) {
    const interval = options.sweepIntervalMs ?? 60_000;
    if (!Number.isFinite(interval) || interval <= 0) throw new Error(`sweepIntervalMs must be > 0, got ${interval}`);
    this.timer = setInterval(() => this.sweep(), interval);
    this.timer.unref();
  }

  async consume(key: string, rule: RateLimitRule, now: Date = new Date(), cost = 1): Promise<RateDecision> {
    return this.decide(key, rule, now, true, cost);
  }

  async peek(key: string, rule: RateLimitRule, now: Date = new Date()): Promise<RateDecision> {
    return this.decide(key, rule, now, false);
  }

  async reset(key: string): Promise<void> {
    this.assertOpen();
    checkKey(key);
    this.windows.delete(key);
    this.forgotten(key);
  }

  async ping(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    this.windows.clear();
  }

  /** Evicts keys with nothing left in their window; returns how many. Runs on the timer; public for tests. */
  sweep(): number {
    let evicted = 0;
    for (const [key, window] of this.windows) {
      if (window.emptyAtMs() <= this.latestMs) {
        this.windows.delete(key);
        this.forgotten(key);
        evicted++;
      }
    }
    return evicted;
  }

  /** Keys currently held, and buckets stored for one key (memory bound checks). */
  get keyCount(): number {
    return this.windows.size;
  }

  bucketCount(key: string): number {
    return this.windows.get(key)?.size ?? 0;
  }

  private decide(key: string, rule: RateLimitRule, now: Date, consume: boolean, cost = 1): RateDecision {
    this.assertOpen();
    const nowMs = checkRateLimitCall(key, rule, now, cost);
    if (nowMs > this.latestMs) this.latestMs = nowMs;
    let window = this.windows.get(key);
    // A key is meant to keep one window; used with another, it starts over (as on Redis).
    if (window && (window.windowMs !== rule.windowMs || window.emptyAtMs() <= nowMs)) {
      this.windows.delete(key);
      this.forgotten(key);
      window = undefined;
    }
    const counted = window ? window.counted(nowMs) : 0;
    const allowed = counted + cost <= rule.limit;
    if (!consume || !allowed) {
      return toDecision(rule, nowMs, allowed, counted, window?.resetAtMs(), window?.roomAtMs(rule.limit, cost));
    }
    if (!window) {
      window = new BucketWindow(bucketSizeMs(rule.windowMs), rule.windowMs);
      this.windows.set(key, window);
    }
    this.recorded(key, window.add(nowMs, cost));
    return toDecision(rule, nowMs, true, counted + cost, window.resetAtMs(), undefined);
  }

  /** A request was counted in `bucket` of `key`'s window (called synchronously, inside the atomic step). */
  protected recorded(_key: string, _bucket: number): void {}

  /** Everything counted for `key` was dropped: reset, evicted, or started over. */
  protected forgotten(_key: string): void {}

  private assertOpen(): void {
    if (this.closed) throw new Error('The rate limiter is closed');
  }
}
