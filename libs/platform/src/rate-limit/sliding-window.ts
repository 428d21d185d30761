import type { RateDecision, RateLimitRule } from './rate-limiter.port.js';

/**
 * The rolling-window algorithm both adapters implement (the Redis adapter as a
 * Lua transcription of `BucketWindow`).
 *
 * Time is cut into fixed buckets of `bucketSizeMs(windowMs)` = ⌈windowMs / 1440⌉
 * milliseconds, aligned on the Unix epoch (one minute for a 24-hour window, 42 ms
 * for a one-minute throttle). A request made at t is counted in bucket
 * b = ⌊t / bucketMs⌋, which keeps, besides its count, the latest t counted in
 * it. The bucket's requests stop counting together, one window after that
 * latest request: at latest(b) + windowMs.
 *
 * Precision: every request counts for at least windowMs (it was made at or
 * before its bucket's latest) and at most windowMs + bucketMs (the bucket's
 * latest is less than one bucket after it). Hence no span of windowMs ever
 * holds more than `limit` allowed requests: "100 per 24 hours" is exact, and
 * the error only delays capacity, by under a minute on a 24-hour quota.
 *
 * X-RateLimit-Reset (`resetAt`) is when the oldest counted bucket leaves the
 * window, the next moment remaining increases; capacity comes back bucket by
 * bucket, not all at once as with a fixed window. As every counted request was
 * made at or before the latest `now` seen, the reset is never more than one
 * window after it (a bucket's end plus the window, the earlier rule, announced
 * up to a bucket more: 86,416 s ahead on a 24-hour quota). `retryAfterMs` of a
 * refusal is when enough of the oldest buckets have left for one more request;
 * that is `resetAt` unless more than `limit` are counted (the limit was
 * lowered, e.g. a tier downgrade), when it may be a later bucket.
 *
 * Memory: only non-empty buckets are stored, at most min(limit, 1441) per key
 * (1440 buckets plus the one partly outside the window), so an enterprise key
 * (100,000 a day) costs at most 1441 entries, and checking it is O(1)
 * amortized: a running total is kept and buckets leave from the oldest end
 * (the latest requests of successive buckets increase, so the oldest bucket
 * always leaves first).
 *
 * Out-of-order calls: concurrent callers may arrive with `now` slightly out of
 * order. A request is counted in its own bucket or the newest stored one,
 * whichever is later, and never lowers a bucket's latest: buckets are only
 * ever appended, and an early-stamped request is at worst counted a little
 * longer (conservative).
 */

/** Buckets per window: 1440 makes a 24-hour window minute-grained. */
export const BUCKETS_PER_WINDOW = 1440;

export function bucketSizeMs(windowMs: number): number {
  return Math.max(1, Math.ceil(windowMs / BUCKETS_PER_WINDOW));
}

/** One stored bucket: its index (⌊t / bucketMs⌋), how many it counts, and the latest t among them. */
export interface Bucket {
  bucket: number;
  count: number;
  latestMs: number;
}

/**
 * The counts of one key. Single-threaded use only: a caller that reads and
 * updates it without awaiting in between is atomic on the Node event loop.
 */
export class BucketWindow {
  /** Bucket indexes, strictly increasing, each with a count ≥ 1 in `counts` and its latest request in `latest`. */
  private readonly buckets: number[] = [];
  private readonly counts: number[] = [];
  private readonly latest: number[] = [];
  private total = 0;

  constructor(
    readonly bucketMs: number,
    readonly windowMs: number,
  ) {}

  /** A window holding `stored` (oldest first, as `stored()` gives them). */
  static restore(bucketMs: number, windowMs: number, stored: Iterable<Bucket>): BucketWindow {
    const window = new BucketWindow(bucketMs, windowMs);
    for (const { bucket, count, latestMs } of stored) {
      window.buckets.push(bucket);
      window.counts.push(count);
      window.latest.push(latestMs);
      window.total += count;
    }
    return window;
  }

  /** Requests counted, after buckets that have left the window at `nowMs` are dropped. */
  counted(nowMs: number): number {
    let gone = 0;
    while (gone < this.buckets.length && this.latest[gone] + this.windowMs <= nowMs) {
      this.total -= this.counts[gone];
      gone++;
    }
    if (gone > 0) {
      this.buckets.splice(0, gone);
      this.counts.splice(0, gone);
      this.latest.splice(0, gone);
    }
    return this.total;
  }

  /** Counts a request of `cost` units made at `nowMs`; call `counted(nowMs)` first. Answers the bucket it went into. */
  add(nowMs: number, cost = 1): number {
    const last = this.buckets.length - 1;
    const own = Math.floor(nowMs / this.bucketMs);
    this.total += cost;
    if (last >= 0 && this.buckets[last] >= own) {
      this.counts[last] += cost;
      if (nowMs > this.latest[last]) this.latest[last] = nowMs;
      return this.buckets[last];
    }
    this.buckets.push(own);
    this.counts.push(cost);
    this.latest.push(nowMs);
    return own;
  }

  /** When remaining next increases; undefined when nothing is counted. */
  resetAtMs(): number | undefined {
    return this.buckets.length === 0 ? undefined : this.latest[0] + this.windowMs;
  }

  /**
   * When `cost` more fit under `limit`; call `counted(nowMs)` first. Undefined
   * when they fit now, or never will (cost > limit).
   */
  roomAtMs(limit: number, cost = 1): number | undefined {
    let excess = this.total - limit + cost;
    if (excess <= 0) return undefined;
    for (let i = 0; i < this.buckets.length; i++) {
      excess -= this.counts[i];
      if (excess <= 0) return this.latest[i] + this.windowMs;
    }
    return undefined; // cost > limit: no amount of waiting makes room
  }

  /** From this moment on nothing stored is counted any more. */
  emptyAtMs(): number {
    const last = this.latest.length - 1;
    return last < 0 ? -Infinity : this.latest[last] + this.windowMs;
  }

  /** The oldest stored bucket's index; undefined when none is. */
  get oldestBucket(): number | undefined {
    return this.buckets[0];
  }

  /** The stored buckets from index `from` on (all by default), oldest first. */
  *stored(from = -Infinity): IterableIterator<Bucket> {
    // From the newest end: a caller asking for recent buckets only walks those.
    let first = this.buckets.length;
    while (first > 0 && this.buckets[first - 1] >= from) first--;
    for (let i = first; i < this.buckets.length; i++) yield { bucket: this.buckets[i], count: this.counts[i], latestMs: this.latest[i] };
  }

  /** Stored buckets (memory bound checks). */
  get size(): number {
    return this.buckets.length;
  }
}

/** The port's decision from an adapter's raw figures. */
export function toDecision(
  rule: RateLimitRule,
  nowMs: number,
  allowed: boolean,
  counted: number,
  resetAtMs: number | undefined,
  roomAtMs: number | undefined,
): RateDecision {
  return {
    allowed,
    limit: rule.limit,
    remaining: Math.max(0, rule.limit - counted),
    resetAt: new Date(resetAtMs ?? nowMs),
    retryAfterMs: allowed || roomAtMs === undefined ? 0 : Math.max(0, roomAtMs - nowMs),
  };
}

/**
 * Argument checks both adapters apply, so a call that works in-process cannot
 * start failing on Redis. Keys and rules come from code, hence plain Errors.
 * Returns `now` in milliseconds.
 */
export function checkRateLimitCall(key: string, rule: RateLimitRule, now: Date, cost = 1): number {
  checkKey(key);
  if (!Number.isSafeInteger(cost) || cost < 1) throw new Error(`A rate-limit cost must be an integer >= 1, got ${cost}`);
  if (!Number.isSafeInteger(rule.limit) || rule.limit < 1) {
    throw new Error(`A rate-limit rule's limit must be an integer >= 1, got ${rule.limit}`);
  }
  if (!Number.isSafeInteger(rule.windowMs) || rule.windowMs < 1) {
    throw new Error(`A rate-limit rule's windowMs must be an integer >= 1, got ${rule.windowMs}`);
  }
  const nowMs = now.getTime();
  if (!Number.isFinite(nowMs)) throw new Error('now must be a valid Date');
  return nowMs;
}

export function checkKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0) throw new Error('A rate-limit key must be a non-empty string');
}
