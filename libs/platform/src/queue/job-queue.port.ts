/**
 * The job-queue port: webhook delivery, mail and scheduled work.
 * Adapters: embedded (durable, LMDB under DATA_DIR) and BullMQ on Redis.
 * Both pass `job-queue.contract.ts`.
 */

export type Backoff =
  /** delay × 2^(retry−1): the first retry waits `delayMs`, then doubles; capped at `maxDelayMs`. */
  | { type: 'exponential'; delayMs: number; maxDelayMs?: number }
  | { type: 'fixed'; delayMs: number }
  /** Explicit delays before retry 1, 2, …; the last value repeats. */
  | { type: 'schedule'; delaysMs: number[] };

export interface JobOptions {
  /** Deduplication: adding a job whose id is already known (pending or kept) adds nothing. */
  jobId?: string;
  /** Run no earlier than this many milliseconds from now. */
  delayMs?: number;
  /** Total tries including the first; default 1. */
  attempts?: number;
  backoff?: Backoff;
}

export interface Job<Data = unknown> {
  id: string;
  queue: string;
  name: string;
  data: Data;
  /** Tries already made before this one (0 on the first run). */
  attemptsMade: number;
}

export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed';

export interface JobInfo<Data = unknown> extends Job<Data> {
  state: JobState;
  failedReason?: string;
}

export type JobHandler<Data = unknown> = (job: Job<Data>) => Promise<void>;

export interface Worker {
  close(): Promise<void>;
}

export interface JobQueue {
  add<Data>(queue: string, name: string, data: Data, options?: JobOptions): Promise<{ id: string; added: boolean }>;
  /** Starts consuming a queue. One processor per queue per process. */
  process<Data>(queue: string, handler: JobHandler<Data>, options?: { concurrency?: number }): Worker;
  getJob<Data>(queue: string, id: string): Promise<JobInfo<Data> | undefined>;
  /** Jobs of the queue not yet finished: waiting, delayed (retries included) and running (the `queue_depth` metric). */
  depth(queue: string): Promise<number>;
  /** Removes a job whatever its state (consent erasure of queued payloads). */
  remove(queue: string, id: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const JOB_QUEUE = Symbol('JobQueue');

/** Delay before retry number `retry` (1-based) under a backoff policy. */
export function backoffDelay(backoff: Backoff | undefined, retry: number): number {
  if (!backoff) return 0;
  switch (backoff.type) {
    case 'fixed':
      return backoff.delayMs;
    case 'exponential': {
      const delay = backoff.delayMs * 2 ** (retry - 1);
      return backoff.maxDelayMs === undefined ? delay : Math.min(delay, backoff.maxDelayMs);
    }
    case 'schedule': {
      const delays = backoff.delaysMs;
      return delays.length === 0 ? 0 : delays[Math.min(retry, delays.length) - 1];
    }
    default: {
      const _exhaustive: never = backoff;
      return _exhaustive;
    }
  }
}
