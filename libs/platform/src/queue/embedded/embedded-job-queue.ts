import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { systemClock, type Clock } from '../../clock.js';
import { DirectoryInUseError, DirectoryLock } from '../../locking/directory-lock.js';
import { assertQueueName, checkConcurrency, checkJobOptions, failureReason } from '../job-options.js';
import {
  backoffDelay,
  type Backoff,
  type Job,
  type JobHandler,
  type JobInfo,
  type JobOptions,
  type JobQueue,
  type Worker,
} from '../job-queue.port.js';

/**
 * The job queue on LMDB, for the all-in-one process (no Redis).
 *
 * Layout (one LMDB environment, ordered-binary array keys):
 *   jobs     [queue, id]                          → StoredJob (the source of truth)
 *   ready    [queue, readyAt, seq]                → id   waiting and delayed jobs, due time first
 *   active   [queue, id]                          → true   jobs being run, found again after a crash
 *   finished [queue, 'completed'|'failed', finishedAt, seq] → id   retained history, oldest first
 *   meta     'seq' → last sequence number
 * Every state change rewrites the job and its index entries in one transaction,
 * so the indexes never disagree with `jobs`. `seq` (a persistent counter) keeps
 * jobs due in the same millisecond in insertion order and index keys unique.
 *
 * Durability: lmdb-js commits with `overlappingSync` on Linux/macOS, so a write
 * promise resolves once committed but before it is synced to disk; `add` and
 * `remove` therefore also await `root.flushed` — a resolved add survives a crash
 * or power loss. Claims and completions are not flushed: losing one only means
 * the job runs again, which at-least-once delivery allows.
 *
 * Recovery: one process owns the directory at a time, through a `DirectoryLock`
 * that the kernel releases when the owner dies (not a recorded pid, which stays
 * "alive" while the dead owner awaits reaping or once another process gets the
 * number: either kept a restarted service down). On open, jobs left
 * `active` by a previous owner go back to waiting: the handler may run twice,
 * never zero times. A job found active after more than `maxStalledCount`
 * crashes is failed instead, so a job that kills the process cannot loop
 * forever (the rule and its message are BullMQ's stalled-job check).
 *
 * Retention: the last `keepCompleted` completed and `keepFailed` failed jobs per
 * queue are kept (BullMQ adapter: `removeOnComplete`/`removeOnFail` counts, same
 * defaults). While kept, getJob reports them and their jobId deduplicates; once
 * trimmed, the id may be added again. A count bounds disk use whatever the
 * throughput, unlike an age limit.
 *
 * Removing an active job cannot stop its handler: the payload is erased and the
 * job hidden at once, the record stays as a tombstone that keeps the id taken,
 * and goes when the run ends, its outcome discarded. BullMQ behaves the same.
 *
 * Wake-ups are event-driven: an add or a finished job pumps the queue, and one
 * timer per processor waits for the next delayed job. Timers are cleared on
 * close and not unref'd: like a BullMQ worker's socket, a running processor
 * keeps the process alive.
 */

export interface EmbeddedJobQueueOptions {
  clock?: Clock;
  /** Completed jobs kept per queue for getJob and deduplication; default 1000. */
  keepCompleted?: number;
  /** Failed jobs kept per queue; default 10 000 (they are the ones to inspect). */
  keepFailed?: number;
  /** Crashes a running job survives before it is failed; default 1, as BullMQ. */
  maxStalledCount?: number;
  /** Errors no caller can receive (a completion that could not be written). */
  onError?: (error: unknown) => void;
  /** How long to wait for an owner that is still dying (`DirectoryLockOptions.waitMs`); default 5000. */
  lockWaitMs?: number;
}

type Status = 'queued' | 'active' | 'completed' | 'failed';

interface StoredJob {
  id: string;
  queue: string;
  name: string;
  data: unknown;
  attempts: number;
  backoff?: Backoff;
  attemptsMade: number;
  status: Status;
  /** While queued: when it becomes due (epoch ms); with `seq`, its `ready` key. */
  readyAt: number;
  seq: number;
  /** While completed or failed; with `seq`, its `finished` key. */
  finishedAt?: number;
  /** Removed while active: payload gone, outcome of the running attempt to be discarded. */
  erased?: boolean;
  stalls: number;
  failedReason?: string;
  addedAt: number;
}

interface Processor {
  queue: string;
  handler: JobHandler<unknown>;
  concurrency: number;
  running: Set<Promise<void>>;
  pumping?: Promise<void>;
  again: boolean;
  timer?: NodeJS.Timeout;
  closing: boolean;
  closed?: Promise<void>;
}

/** Sorts after every number in ordered-binary keys: the open end of a [queue, number…] range. */
const AFTER_NUMBERS = '\uffff';
/** setTimeout's ceiling; a later due time re-arms when the timer fires. */
const MAX_TIMER_MS = 2 ** 31 - 1;
const STALLED_REASON = 'job stalled more than allowable limit';

/** Another process (or another queue in this one) has the directory open: LMDB state and the job claims are one owner's. */
export class QueueDirectoryInUseError extends DirectoryInUseError {
  constructor(dir: string, pid: number | undefined) {
    super(dir, pid, 'Job queue directory');
    this.name = 'QueueDirectoryInUseError';
  }
}

export class EmbeddedJobQueue implements JobQueue {
  private readonly processors = new Map<string, Processor>();
  private closed = false;
  private closing?: Promise<void>;

  private constructor(
    private readonly lock: DirectoryLock,
    private readonly root: RootDatabase,
    private readonly jobs: Database<StoredJob, [string, string]>,
    private readonly ready: Database<string, [string, number, number]>,
    private readonly active: Database<true, [string, string]>,
    private readonly finished: Database<string, [string, string, number, number]>,
    private readonly meta: Database<unknown, string>,
    private readonly clock: Clock,
    private readonly keepCompleted: number,
    private readonly keepFailed: number,
    private readonly maxStalledCount: number,
    private readonly onError: (error: unknown) => void,
  ) {}

  static async open(dir: string, options: EmbeddedJobQueueOptions = {}): Promise<EmbeddedJobQueue> {
    const resolved = path.resolve(dir);
    mkdirSync(resolved, { recursive: true });
    // Taken before LMDB opens: an environment must not be opened twice in one process either.
    let lock: DirectoryLock;
    try {
      lock = await DirectoryLock.acquire(resolved, { waitMs: options.lockWaitMs });
    } catch (error) {
      if (error instanceof DirectoryInUseError) throw new QueueDirectoryInUseError(error.dir, error.pid);
      throw error;
    }
    let root: RootDatabase | undefined;
    try {
      root = open({ path: resolved });
      const queue = new EmbeddedJobQueue(
        lock,
        root,
        root.openDB({ name: 'jobs' }),
        root.openDB({ name: 'ready' }),
        root.openDB({ name: 'active' }),
        root.openDB({ name: 'finished' }),
        root.openDB({ name: 'meta' }),
        options.clock ?? systemClock,
        options.keepCompleted ?? 1000,
        options.keepFailed ?? 10_000,
        options.maxStalledCount ?? 1,
        options.onError ?? ((error) => console.error('[embedded-job-queue]', error)),
      );
      await queue.takeOwnership();
      return queue;
    } catch (error) {
      await root?.close();
      await lock.release();
      throw error;
    }
  }

  async add<Data>(
    queue: string,
    name: string,
    data: Data,
    options: JobOptions = {},
  ): Promise<{ id: string; added: boolean }> {
    this.assertOpen();
    assertQueueName(queue);
    const { jobId, delayMs, attempts } = checkJobOptions(options);
    const id = jobId ?? randomUUID();
    // JSON round trip: the same data shapes survive as on BullMQ (a Date becomes a string in both).
    const stored = JSON.parse(JSON.stringify(data === undefined ? {} : data)) as unknown;
    const added = await this.root.transaction(() => {
      if (this.jobs.doesExist([queue, id])) return false;
      const now = this.now();
      this.enqueue({
        id,
        queue,
        name,
        data: stored,
        attempts,
        backoff: options.backoff,
        attemptsMade: 0,
        status: 'queued',
        readyAt: now + delayMs,
        seq: 0,
        stalls: 0,
        addedAt: now,
      });
      return true;
    });
    if (added) {
      await this.root.flushed;
      this.wake(queue);
    }
    return { id, added };
  }

  process<Data>(queue: string, handler: JobHandler<Data>, options: { concurrency?: number } = {}): Worker {
    this.assertOpen();
    assertQueueName(queue);
    if (this.processors.has(queue)) {
      throw new Error(`A processor is already registered for queue "${queue}" in this process`);
    }
    const processor: Processor = {
      queue,
      handler: handler as JobHandler<unknown>,
      concurrency: checkConcurrency(options.concurrency),
      running: new Set(),
      again: false,
      closing: false,
    };
    this.processors.set(queue, processor);
    this.pump(processor);
    return { close: () => this.closeProcessor(processor) };
  }

  async getJob<Data>(queue: string, id: string): Promise<JobInfo<Data> | undefined> {
    this.assertOpen();
    const job = this.jobs.get([queue, id]);
    if (!job || job.erased) return undefined;
    const state =
      job.status === 'queued' ? (job.readyAt > this.now() ? 'delayed' : 'waiting') : job.status;
    return {
      id: job.id,
      queue: job.queue,
      name: job.name,
      data: job.data as Data,
      attemptsMade: job.attemptsMade,
      state,
      ...(job.failedReason !== undefined && state !== 'completed' ? { failedReason: job.failedReason } : {}),
    };
  }

  /** Counted on the indexes: `ready` holds the waiting and delayed jobs, `active` the running ones. */
  async depth(queue: string): Promise<number> {
    this.assertOpen();
    // [queue] sorts before every [queue, …] key and [queue + NUL] after them all.
    const range = { start: [queue], end: [`${queue}\u0000`] } as never;
    return this.ready.getCount(range) + this.active.getCount(range);
  }

  async remove(queue: string, id: string): Promise<void> {
    this.assertOpen();
    const removed = await this.root.transaction(() => {
      const job = this.jobs.get([queue, id]);
      if (!job || job.erased) return false;
      if (job.status === 'active') {
        this.jobs.put([queue, id], { ...job, data: null, erased: true });
        return true;
      }
      this.unindex(job);
      this.jobs.remove([queue, id]);
      return true;
    });
    if (removed) await this.root.flushed;
  }

  async ping(): Promise<void> {
    this.assertOpen();
    this.meta.get('seq');
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      await Promise.all([...this.processors.values()].map((processor) => this.closeProcessor(processor)));
      await this.root.close();
      await this.lock.release();
    })();
    return this.closing;
  }

  // ── claiming and running ─────────────────────────────────────────────

  private wake(queue: string): void {
    const processor = this.processors.get(queue);
    if (processor) this.pump(processor);
  }

  /** Claims due jobs up to the free slots; one pump at a time per processor, re-run if woken meanwhile. */
  private pump(processor: Processor): void {
    if (processor.pumping) {
      processor.again = true;
      return;
    }
    processor.pumping = (async () => {
      do {
        processor.again = false;
        if (processor.closing) return;
        const free = processor.concurrency - processor.running.size;
        if (free <= 0) return; // a finishing job pumps again
        const { jobs, nextAt } = await this.claim(processor.queue, free);
        // Claimed jobs are active in the store: run them even if close() began meanwhile.
        for (const job of jobs) this.run(processor, job);
        if (jobs.length < free) this.arm(processor, nextAt);
      } while (processor.again);
    })()
      .catch((error) => this.onError(error))
      .finally(() => {
        processor.pumping = undefined;
        // A wake-up that landed after the loop's last check must not be lost.
        if (processor.again) this.pump(processor);
      });
  }

  private claim(queue: string, max: number): Promise<{ jobs: StoredJob[]; nextAt?: number }> {
    return this.root.transaction(() => {
      const now = this.now();
      const jobs: StoredJob[] = [];
      // One entry past `max` tells when the next job is due; collected first, as the loop writes.
      const entries = [...this.ready.getRange({ start: [queue], end: [queue, AFTER_NUMBERS], limit: max + 1 })];
      for (const { key, value: id } of entries) {
        const readyAt = key[1];
        if (readyAt > now) return { jobs, nextAt: readyAt };
        if (jobs.length === max) return { jobs };
        this.ready.remove(key);
        const job = this.jobs.get([queue, id]);
        if (!job || job.status !== 'queued') continue;
        const claimed: StoredJob = { ...job, status: 'active' };
        this.jobs.put([queue, id], claimed);
        this.active.put([queue, id], true);
        jobs.push(claimed);
      }
      return { jobs };
    });
  }

  private arm(processor: Processor, nextAt: number | undefined): void {
    clearTimeout(processor.timer);
    processor.timer = undefined;
    if (nextAt === undefined || processor.closing) return;
    const wait = Math.min(Math.max(0, nextAt - this.now()), MAX_TIMER_MS);
    processor.timer = setTimeout(() => {
      processor.timer = undefined;
      this.pump(processor);
    }, wait);
  }

  private run(processor: Processor, job: StoredJob): void {
    const running: Promise<void> = (async () => {
      let failure: string | undefined;
      try {
        await processor.handler(toJob(job));
      } catch (error) {
        failure = failureReason(error);
      }
      try {
        await this.finish(job, failure);
      } catch (error) {
        this.onError(error);
      }
    })().finally(() => {
      processor.running.delete(running);
      this.pump(processor);
    });
    processor.running.add(running);
  }

  private finish(claimed: StoredJob, failure: string | undefined): Promise<void> {
    return this.root.transaction(() => {
      const key: [string, string] = [claimed.queue, claimed.id];
      const job = this.jobs.get(key);
      if (!job || job.status !== 'active') return;
      this.active.remove(key);
      if (job.erased) {
        this.jobs.remove(key);
        return;
      }
      const attemptsMade = job.attemptsMade + 1;
      const base = { ...job, attemptsMade };
      if (failure === undefined) {
        this.retire({ ...base, status: 'completed', failedReason: undefined });
      } else if (attemptsMade < job.attempts) {
        const delay = Math.max(0, backoffDelay(job.backoff, attemptsMade));
        this.enqueue({ ...base, status: 'queued', readyAt: this.now() + delay, failedReason: failure });
      } else {
        this.retire({ ...base, status: 'failed', failedReason: failure });
      }
    });
  }

  // ── store helpers (call inside a transaction) ───────────────────────

  private enqueue(job: StoredJob): void {
    const queued = { ...job, status: 'queued' as const, seq: this.nextSeq(), finishedAt: undefined };
    this.jobs.put([job.queue, job.id], queued);
    this.ready.put([job.queue, queued.readyAt, queued.seq], job.id);
  }

  private retire(job: StoredJob & { status: 'completed' | 'failed' }): void {
    const retired = { ...job, seq: this.nextSeq(), finishedAt: this.now() };
    this.jobs.put([job.queue, job.id], retired);
    this.finished.put([job.queue, job.status, retired.finishedAt, retired.seq], job.id);
    this.trim(job.queue, job.status, job.status === 'completed' ? this.keepCompleted : this.keepFailed);
  }

  /** Drops the oldest finished jobs of a queue beyond `keep`. */
  private trim(queue: string, status: 'completed' | 'failed', keep: number): void {
    const stale = [
      ...this.finished.getRange({
        start: [queue, status, AFTER_NUMBERS],
        end: [queue, status],
        reverse: true,
        offset: keep,
      }),
    ];
    for (const { key, value: id } of stale) {
      this.finished.remove(key);
      this.jobs.remove([queue, id]);
    }
  }

  private unindex(job: StoredJob): void {
    switch (job.status) {
      case 'queued':
        this.ready.remove([job.queue, job.readyAt, job.seq]);
        return;
      case 'active':
        this.active.remove([job.queue, job.id]);
        return;
      case 'completed':
      case 'failed':
        this.finished.remove([job.queue, job.status, job.finishedAt!, job.seq]);
        return;
      default: {
        const _exhaustive: never = job.status;
        return _exhaustive;
      }
    }
  }

  private nextSeq(): number {
    const seq = ((this.meta.get('seq') as number | undefined) ?? 0) + 1;
    this.meta.put('seq', seq);
    return seq;
  }

  /** Puts the previous owner's active jobs back (at-least-once); the directory lock is already held. */
  private async takeOwnership(): Promise<void> {
    await this.root.transaction(() => {
      // Builds before the directory lock recorded their pid here; nothing reads it any more.
      this.meta.remove('owner');
      const stranded = [...this.active.getRange({})];
      for (const { key } of stranded) {
        this.active.remove(key);
        const job = this.jobs.get(key);
        if (!job || job.status !== 'active') continue;
        if (job.erased) {
          this.jobs.remove(key);
          continue;
        }
        const stalls = job.stalls + 1;
        const base = { ...job, stalls };
        if (stalls > this.maxStalledCount) {
          this.retire({ ...base, status: 'failed', failedReason: STALLED_REASON });
        } else {
          this.enqueue({ ...base, status: 'queued', readyAt: this.now() });
        }
      }
    });
    await this.root.flushed;
  }

  private async closeProcessor(processor: Processor): Promise<void> {
    processor.closed ??= (async () => {
      processor.closing = true;
      clearTimeout(processor.timer);
      processor.timer = undefined;
      await processor.pumping;
      // Running handlers finish and record their outcome, as BullMQ's Worker.close() waits for active jobs.
      while (processor.running.size > 0) await Promise.all(processor.running);
      this.processors.delete(processor.queue);
    })();
    return processor.closed;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('The job queue is closed');
  }

  private now(): number {
    return this.clock.now().getTime();
  }
}

function toJob(job: StoredJob): Job<unknown> {
  return { id: job.id, queue: job.queue, name: job.name, data: job.data, attemptsMade: job.attemptsMade };
}
