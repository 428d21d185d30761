import type { RateDecision, RateLimitRule } from './rate-limiter.port.js';

/**
 * The rolling-window algorithm both adapters implement (the Redis adapter as a
 * Lua transcription of `BucketWindow`).
 *
 * Time is cut into fixed buckets of `bucketSizeMs(windowMs)` = ⌈windowMs / 1440⌉
 * milliseconds, aligned on the Unix epoch (one minute for a 24-hour window, 42 ms
 * for a one-minute throttle). A request made at t is counted in bucket
 * b = ⌊t / bucketMs⌋. A bucket is counted at `now` while its END is inside the
 * window, i.e. while (b + 1) · bucketMs > now − windowMs; so a request stops
 * counting at (b + 1) · bucketMs + windowMs.
 *
 * Precision: a request keeps counting for more than windowMs and at most
 * windowMs + bucketMs (a 24-hour quota frees a request up to one minute late,
 * never early). Hence no span of windowMs ever holds more than `limit` allowed
 * requests: "100 per 24 hours" is exact, and the error only delays capacity.
 *
 * X-RateLimit-Reset (`resetAt`) is when the oldest counted bucket leaves the
 * window, the next moment remaining increases; capacity comes back bucket by
 * bucket, not all at once as with a fixed window. `retryAfterMs` of a refusal
 * is when enough of the oldest buckets have left for one more request; that is
 * `resetAt` unless more than `limit` are counted (the limit was lowered, e.g. a
 * tier downgrade), when it may be a later bucket.
 *
 * Memory: only non-empty buckets are stored, at most min(limit, 1441) per key
 * (1440 buckets plus the one partly outside the window), so an enterprise key
 * (100,000 a day) costs at most 1441 counters, and checking it is O(1)
 * amortized: a running total is kept and buckets leave from the oldest end.
 *
 * Out-of-order calls: concurrent callers may arrive with `now` slightly out of
 * order. A request is counted in its own bucket or the newest stored one,
 * whichever is later: buckets are only ever appended, and an early-stamped
 * request is at worst counted a little longer (conservative).
 */

/** Buckets per window: 1440 makes a 24-hour window minute-grained. */
export const BUCKETS_PER_WINDOW = 1440;

export function bucketSizeMs(windowMs: number): number {
  return Math.max(1, Math.ceil(windowMs / BUCKETS_PER_WINDOW));
}

/** When a bucket stops being counted. */
export function bucketLeavesWindowAt(bucket: number, bucketMs: number, windowMs: number): number {
  return (bucket + 1) * bucketMs + windowMs;
}

/**
 * The counts of one key. Single-threaded use only: a caller that reads and
 * updates it without awaiting in between is atomic on the Node event loop.
 */
export class BucketWindow {
  /** Bucket indexes, strictly increasing, each with a count ≥ 1 in `counts`. */
  private readonly buckets: number[] = [];
  private readonly counts: number[] = [];
  private total = 0;

  constructor(
    readonly bucketMs: number,
    readonly windowMs: number,
  ) {}

  /** Requests counted, after buckets that have left the window at `nowMs` are dropped. */
  counted(nowMs: number): number {
    const first = Math.floor((nowMs - this.windowMs) / this.bucketMs);
    let gone = 0;
    while (gone < this.buckets.length && this.buckets[gone] < first) {
      this.total -= this.counts[gone];
      gone++;
    }
    if (gone > 0) {
      this.buckets.splice(0, gone);
      this.counts.splice(0, gone);
    }
    return this.total;
  }

  /** Counts one request made at `nowMs`; call `counted(nowMs)` first. */
  add(nowMs: number): void {
    const last = this.buckets.length - 1;
    const bucket = Math.max(Math.floor(nowMs / this.bucketMs), last >= 0 ? this.buckets[last] : -Infinity);
    if (last >= 0 && this.buckets[last] === bucket) {
      this.counts[last]++;
    } else {
      this.buckets.push(bucket);
      this.counts.push(1);
    }
    this.total++;
  }

  /** When remaining next increases; undefined when nothing is counted. */
  resetAtMs(): number | undefined {
    return this.buckets.length === 0 ? undefined : bucketLeavesWindowAt(this.buckets[0], this.bucketMs, this.windowMs);
  }

  /** When the count falls below `limit`; call `counted(nowMs)` first. */
  roomAtMs(limit: number): number | undefined {
    let excess = this.total - limit + 1;
    if (excess <= 0) return undefined;
    for (let i = 0; i < this.buckets.length; i++) {
      excess -= this.counts[i];
      if (excess <= 0) return bucketLeavesWindowAt(this.buckets[i], this.bucketMs, this.windowMs);
    }
    return undefined; // unreachable: limit ≥ 1, so the stored counts always cover the excess
  }

  /** From this moment on nothing stored is counted any more. */
  emptyAtMs(): number {
    const last = this.buckets.length - 1;
    return last < 0 ? -Infinity : bucketLeavesWindowAt(this.buckets[last], this.bucketMs, this.windowMs);
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
export function checkRateLimitCall(key: string, rule: RateLimitRule, now: Date): number {
  checkKey(key);
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
