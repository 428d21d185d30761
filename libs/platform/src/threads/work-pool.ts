import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { Counter, Gauge } from 'prom-client';
import { DomainError } from '../errors.js';
import { metricsRegistry } from '../metrics/metrics.js';
import type { TaskReply } from './work-task.js';

/**
 * How each job ended (GET /metrics): `thread` and `in_process` answered;
 * `refused` (queue full), `timed_out`, `thread_failed` and `shut_down` got the
 * pool's busy error; `failed`, a job that threw.
 */
export const threadPoolJobs = new Counter({
  name: 'thread_pool_jobs_total',
  help: 'Jobs of the worker-thread pools by pool and outcome: thread, in_process, refused, timed_out, thread_failed, shut_down, failed',
  labelNames: ['pool', 'outcome'] as const,
  registers: [metricsRegistry],
});

const openPools = new Set<{ readonly name: string; readonly queued: number }>();

new Gauge({
  name: 'thread_pool_queue_depth',
  help: 'Jobs waiting for a thread, per pool',
  labelNames: ['pool'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const pool of openPools) this.inc({ pool: pool.name }, pool.queued);
  },
});

export type WorkOutcome = 'thread' | 'in_process' | 'refused' | 'timed_out' | 'thread_failed' | 'shut_down' | 'failed';
/** Why the pool could not run a job: the caller answers it as its own 503 (with Retry-After). */
export type BusyReason = 'refused' | 'timed_out' | 'thread_failed' | 'shut_down';

/**
 * 503 with Retry-After when a pool cannot run a job (queue full, time-out, failed thread, shut down);
 * each pool's error names its own code (HEXCODE_BUSY, SERVICE_AREA_BUSY…) and gives `details.reason`.
 */
export abstract class ThreadPoolBusyError extends DomainError {
  readonly status = 503;
  override readonly retryAfterSeconds = 1;
  override readonly details: Readonly<{ reason: BusyReason }>;
  constructor(message: string, reason: BusyReason) {
    super(message);
    this.details = { reason };
  }
}

export interface WorkPoolOptions<In, Out> {
  /** Names the threads and the metrics' `pool` label. */
  name: string;
  /** Threads; 0 runs every job with `inProcess`. */
  threads: number;
  /** The compiled thread module (its default export is serveTask(…)); null (the TypeScript sources under jest) runs jobs in process. */
  workerUrl: URL | null;
  /** The same job on the calling thread: without threads, or when the module is not there (not built). */
  inProcess: (input: In) => Out | Promise<Out>;
  /** The error a job gets when the pool cannot run it. */
  busy: (reason: BusyReason, message: string) => Error;
  /** Jobs waiting while every thread is busy; one more is refused. Default 16 per thread. */
  queueLimit?: number;
  /** From the call to the answer, queue included (an AbortSignal per job); a thread still running the job then is ended and replaced. */
  timeoutMs?: number;
  /** Given to every thread (piscina's workerData). */
  workerData?: unknown;
  log?: { error(fields: Record<string, unknown>): void };
}

export const QUEUE_PER_THREAD = 16;
export const THREAD_JOB_TIMEOUT_MS = 10_000;

/**
 * CPU-heavy request work in worker threads: one abstraction over piscina for
 * every pool of the service (bulk hex coding, service areas, isochrone
 * outlines, transit planning).
 *
 * - `threads` threads, one job each at a time, started on the first job (or `start`);
 * - at most `queueLimit` jobs wait; one more is refused at once (`busy('refused')`);
 * - each job has `timeoutMs` from the call, queue included (an AbortSignal):
 *   a queued job leaves the queue, a running one has its thread ended and
 *   replaced by piscina (`busy('timed_out')`);
 * - a thread that dies fails the job it held (`busy('thread_failed')`), never hangs;
 * - without threads, or when the compiled module is not there (the
 *   TypeScript sources under jest, a partial build), every job runs in process;
 * - `close` refuses what waits (`busy('shut_down')`) and ends the threads.
 */
export class WorkPool<In, Out> {
  readonly name: string;
  private piscina: Piscina | null = null;
  private readonly filename: string | null;
  private readonly queueLimit: number;
  private readonly timeoutMs: number;
  private closed = false;

  constructor(private readonly options: WorkPoolOptions<In, Out>) {
    this.name = options.name;
    this.filename = options.threads > 0 && options.workerUrl ? fileURLToPath(options.workerUrl) : null;
    if (this.filename && !existsSync(this.filename)) {
      options.log?.error({ msg: `${this.name} thread module is missing; running its jobs in process`, file: this.filename });
      this.filename = null;
    }
    this.queueLimit = options.queueLimit ?? QUEUE_PER_THREAD * Math.max(1, options.threads);
    this.timeoutMs = options.timeoutMs ?? THREAD_JOB_TIMEOUT_MS;
    openPools.add(this);
  }

  /** Whether jobs run in threads (else on the calling thread). */
  get threaded(): boolean {
    return this.filename !== null && !this.closed;
  }

  /** Jobs waiting for a thread. */
  get queued(): number {
    return this.piscina?.queueSize ?? 0;
  }

  /** Starts the threads now rather than on the first job (a thread loads its modules in a second or more). */
  start(): void {
    if (this.threaded) this.threadsNow();
  }

  /**
   * Runs `input` on a thread (its `transfer` buffers moved, not copied), or in
   * process: with `inProcess` when given (a job whose in-process form needs
   * what does not go to a thread), else with the pool's.
   */
  async run(input: In, job: { transfer?: ArrayBuffer[]; inProcess?: () => Out | Promise<Out> } = {}): Promise<Out> {
    if (this.closed) return this.refuse('shut_down', 'the service is shutting down');
    if (!this.threaded) return this.runInProcess(job.inProcess ?? (() => this.options.inProcess(input)));
    const piscina = this.threadsNow();
    // piscina's own maxQueue does not count jobs that carry a signal: the limit is checked here.
    if (piscina.queueSize >= this.queueLimit) {
      return this.refuse('refused', `${this.name} is at capacity (${piscina.threads.length} threads busy, ${piscina.queueSize} waiting); try again shortly`);
    }
    let reply: TaskReply<Out>;
    try {
      reply = (await piscina.run(input, { signal: AbortSignal.timeout(this.timeoutMs), transferList: job.transfer ?? [] })) as TaskReply<Out>;
    } catch (error) {
      if (this.closed) return this.refuse('shut_down', 'the service is shutting down');
      if ((error as Error).name === 'AbortError') return this.refuse('timed_out', `${this.name} took longer than ${this.timeoutMs / 1000} s; try again`);
      this.options.log?.error({ msg: `a ${this.name} thread failed`, err: (error as Error).message });
      return this.refuse('thread_failed', `the ${this.name} thread failed during this request; try again`);
    }
    if (!reply.ok) {
      threadPoolJobs.inc({ pool: this.name, outcome: 'failed' });
      throw new Error(`${this.name} job failed: ${reply.error}`);
    }
    threadPoolJobs.inc({ pool: this.name, outcome: 'thread' });
    return reply.output;
  }

  /** Refuses what waits, ends the threads. */
  async close(): Promise<void> {
    this.closed = true;
    openPools.delete(this);
    await this.piscina?.destroy();
  }

  private threadsNow(): Piscina {
    this.piscina ??= new Piscina({
      filename: this.filename!,
      name: 'default',
      minThreads: this.options.threads,
      maxThreads: this.options.threads,
      idleTimeout: Number.POSITIVE_INFINITY,
      // A thread's own loop keeps running between jobs (the transit planner compiles the live networks in the background).
      atomics: 'disabled',
      workerData: this.options.workerData,
    });
    return this.piscina;
  }

  private async runInProcess(job: () => Out | Promise<Out>): Promise<Out> {
    try {
      const output = await job();
      threadPoolJobs.inc({ pool: this.name, outcome: 'in_process' });
      return output;
    } catch (error) {
      threadPoolJobs.inc({ pool: this.name, outcome: 'failed' });
      throw error;
    }
  }

  private refuse(reason: BusyReason, message: string): Promise<never> {
    threadPoolJobs.inc({ pool: this.name, outcome: reason });
    return Promise.reject(this.options.busy(reason, message));
  }
}
