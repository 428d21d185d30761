import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { DirectoryLock } from '../../locking/directory-lock.js';
import { BucketWindow, bucketSizeMs, type Bucket } from '../sliding-window.js';
import { InProcessRateLimiter, type InProcessRateLimiterOptions } from './in-process-rate-limiter.js';

export interface EmbeddedRateLimiterOptions extends InProcessRateLimiterOptions {
  /**
   * Longest a count waits in memory before its commit starts; default 50 ms.
   * It is what a crash can lose (docs/adr/0007, "Embedded counters").
   */
  flushIntervalMs?: number;
  /** A journal commit that failed (it is retried with the next one); default console.error. */
  onError?: (error: unknown) => void;
  /** How long to wait for an owner that is still dying (`DirectoryLockOptions.waitMs`); default 5000. */
  lockWaitMs?: number;
}

/** What a flush must write for one key since the last one. */
interface Change {
  /** The key was dropped (reset, evicted, started over): everything stored for it goes first. */
  rewrite: boolean;
  /** Lowest bucket counted into since the last flush; Infinity when none. */
  from: number;
}

/** Stored per bucket: [count, latest request (epoch ms), the window it counts for]. */
type StoredBucket = [count: number, latestMs: number, windowMs: number];

/** Sorts after every number in ordered-binary keys: the open end of a [key, number] range. */
const AFTER_NUMBERS = '\uffff';

/**
 * The embedded mode's quota and throttle counters (REDIS_URL unset): the
 * in-process counters, journaled to LMDB under `DATA_DIR/rate-limits`, so a
 * restart does not hand every key a fresh rolling 24 h (issue #10).
 *
 * Decisions stay in memory and synchronous, as in `InProcessRateLimiter`: the
 * check is on every request, and an LMDB transaction per request would cost
 * more than the rest of the guard. Counting marks the key dirty; one
 * transaction every `flushIntervalMs` (group commit) writes every dirty key's
 * changed buckets — usually one per key, the current one — and deletes the
 * buckets that have left its window. Opening reads the journal back.
 *
 * Durability bound: a count is committed at most `flushIntervalMs` after it
 * was made, plus the commit in flight before it (a few ms). A SIGKILL or
 * crash loses the counts of about the last 50 ms and nothing older; a power
 * loss, besides, the commit whose sync had not finished (lmdb-js syncs
 * right after each commit). Lost counts only ever give a key more room, never
 * less. A clean close commits everything.
 *
 * One process owns the directory (a `DirectoryLock`, as the job queue): two
 * processes journaling their own in-memory counts would overwrite each other.
 */
export class EmbeddedRateLimiter extends InProcessRateLimiter {
  private dirty = new Map<string, Change>();
  /** The oldest bucket in the journal per key; -Infinity: not known, look at all of them. */
  private readonly storedFrom = new Map<string, number>();
  private flushTimer?: NodeJS.Timeout;
  private flushing: Promise<void> = Promise.resolve();
  private closing?: Promise<void>;

  private constructor(
    private readonly lock: DirectoryLock,
    private readonly root: RootDatabase,
    private readonly buckets: Database<StoredBucket, [string, number]>,
    private readonly flushIntervalMs: number,
    private readonly onError: (error: unknown) => void,
    options: InProcessRateLimiterOptions,
  ) {
    super(options);
  }

  static async open(dir: string, options: EmbeddedRateLimiterOptions = {}): Promise<EmbeddedRateLimiter> {
    const flushIntervalMs = options.flushIntervalMs ?? 50;
    if (!Number.isFinite(flushIntervalMs) || flushIntervalMs <= 0) throw new Error(`flushIntervalMs must be > 0, got ${flushIntervalMs}`);
    const resolved = path.resolve(dir);
    mkdirSync(resolved, { recursive: true });
    const lock = await DirectoryLock.acquire(resolved, { what: 'Rate-limit directory', waitMs: options.lockWaitMs });
    let root: RootDatabase | undefined;
    try {
      root = open({ path: resolved });
      const limiter = new EmbeddedRateLimiter(
        lock,
        root,
        root.openDB({ name: 'buckets' }),
        flushIntervalMs,
        options.onError ?? ((error) => console.error('[embedded-rate-limiter]', error)),
        options,
      );
      limiter.load();
      return limiter;
    } catch (error) {
      await root?.close();
      await lock.release();
      throw error;
    }
  }

  /** Commits every count made so far (tests; close does it too). */
  flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    // One commit at a time, in order: a later one never lands before an earlier one.
    this.flushing = this.flushing.then(() => this.commit());
    return this.flushing;
  }

  override close(): Promise<void> {
    this.closing ??= (async () => {
      // Refuse calls first, so the last flush is the last word.
      this.closed = true;
      try {
        await this.flush();
      } finally {
        await super.close();
        await this.root.close();
        await this.lock.release();
      }
    })();
    return this.closing;
  }

  protected override recorded(key: string, bucket: number): void {
    const change = this.dirty.get(key);
    if (change) {
      if (bucket < change.from) change.from = bucket;
    } else {
      this.dirty.set(key, { rewrite: false, from: bucket });
      this.schedule();
    }
  }

  protected override forgotten(key: string): void {
    const change = this.dirty.get(key);
    if (change) {
      change.rewrite = true;
      change.from = Infinity;
    } else {
      this.dirty.set(key, { rewrite: true, from: Infinity });
      this.schedule();
    }
  }

  private schedule(): void {
    if (this.flushTimer || this.closed) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      void this.flush();
    }, this.flushIntervalMs);
    // A process that ends without close() loses at most this interval, as a crash would.
    this.flushTimer.unref();
  }

  /** Writes what changed since the last commit; never rejects (a failure is reported and retried). */
  private async commit(): Promise<void> {
    if (this.dirty.size === 0) return;
    const changes = this.dirty;
    this.dirty = new Map();
    try {
      // The callback runs synchronously on this thread, so it writes each window as it is at that
      // moment: counts made after the swap above are written now too, and again by the next commit.
      await this.root.transaction(() => {
        for (const [key, change] of changes) this.write(key, change);
      });
    } catch (error) {
      this.onError(error);
      for (const [key, change] of changes) {
        // The transaction was rolled back after `write` noted what it stored: the next one looks at everything.
        this.storedFrom.set(key, -Infinity);
        const newer = this.dirty.get(key);
        this.dirty.set(key, newer ? { rewrite: newer.rewrite || change.rewrite, from: Math.min(newer.from, change.from) } : change);
      }
      this.schedule();
    }
  }

  /** Inside the commit's transaction. */
  private write(key: string, change: Change): void {
    const window = this.windows.get(key);
    // Stored buckets below the oldest one held in memory have left the window (all of them, if the key was
    // dropped). Looked for only when there can be some: a range scan per write would cost more than the put.
    const keepFrom = change.rewrite || !window ? AFTER_NUMBERS : window.oldestBucket ?? AFTER_NUMBERS;
    const storedFrom = this.storedFrom.get(key);
    if (storedFrom !== undefined && (typeof keepFrom === 'string' || storedFrom < keepFrom)) {
      const start: [string] | [string, number] = storedFrom === -Infinity ? [key] : [key, storedFrom];
      for (const stale of [...this.buckets.getKeys({ start: start as [string, number], end: [key, keepFrom] as [string, number] })]) {
        this.buckets.remove(stale);
      }
    }
    if (!window || window.oldestBucket === undefined) {
      this.storedFrom.delete(key);
      return;
    }
    for (const { bucket, count, latestMs } of window.stored(change.rewrite ? -Infinity : change.from)) {
      this.buckets.put([key, bucket], [count, latestMs, window.windowMs]);
    }
    this.storedFrom.set(key, window.oldestBucket);
  }

  /** Rebuilds the windows from the journal; buckets that have left are dropped at the key's next use or sweep. */
  private load(): void {
    let key: string | undefined;
    let windowMs = 0;
    let stored: Bucket[] = [];
    const finish = () => {
      if (key !== undefined && stored.length > 0) this.windows.set(key, BucketWindow.restore(bucketSizeMs(windowMs), windowMs, stored));
    };
    for (const { key: [rateKey, bucket], value: [count, latestMs, bucketWindowMs] } of this.buckets.getRange()) {
      if (rateKey !== key) {
        finish();
        key = rateKey;
        stored = [];
        this.storedFrom.set(rateKey, bucket);
      }
      // A key is written whole after it changes window, so mixed windows mean nothing newer than the last one counts.
      if (bucketWindowMs !== windowMs) stored = [];
      windowMs = bucketWindowMs;
      stored.push({ bucket, count, latestMs });
    }
    finish();
  }
}
