import { Worker } from 'node:worker_threads';
import { Counter, Gauge } from 'prom-client';
import { DomainError } from '../errors.js';
import { metricsRegistry } from '../metrics/metrics.js';
import type { FromThread, ThreadSetup, ToThread } from './thread-messages.js';

/**
 * The default niceness of a pool's threads (issue 31): on a busy machine the
 * scheduler gives a nice-10 thread about a tenth of the CPU a nice-0 one gets
 * when both want it, so a key's bulk or service-area jobs still use every idle
 * core but stop taking the main thread's share (the fairness bench's bulk attack
 * over 32 keys kept both cores of the CI machine coding).
 */
export const THREAD_NICENESS = 10;

/**
 * Whether a pool's threads run under SCHED_IDLE by default (Linux; docs/adr/0053):
 * with nice 10 alone, the event loop still waited in the run queue behind a bulk
 * thread ~20 % of its time under the fairness bench's 32-key bulk attack.
 */
export const THREAD_IDLE = true;

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

export type ThreadJobOutcome = 'thread' | 'in_process' | 'refused' | 'timed_out' | 'thread_failed' | 'shut_down' | 'failed';
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

export interface ThreadPoolOptions<In, Out> {
  /** Names the threads and the metrics' `pool` label. */
  name: string;
  /** Threads; 0 runs every job with `inProcess`. */
  threads: number;
  /** The compiled thread entry (it calls serveThread); null (the TypeScript sources under jest) runs jobs in process. */
  workerUrl: URL | null;
  /** The same job on the calling thread: without threads, and when the entry cannot be loaded. */
  inProcess: (input: In) => Promise<Out>;
  /** The error a job gets when the pool cannot run it. */
  busy: (reason: BusyReason, message: string) => Error;
  /** Jobs waiting while every thread is busy; one more is refused. Default 16 per thread. */
  queueLimit?: number;
  /** From the call to the answer, queue included; a thread still running the job then is ended and replaced. */
  timeoutMs?: number;
  /**
   * The threads' CPU niceness (Linux, per thread: serveThread applies it; 0 leaves them as the process is).
   * Default THREAD_NICENESS: the heavy jobs of one key yield the CPU to the main loop serving everyone's cheap requests.
   */
  niceness?: number;
  /** The threads under SCHED_IDLE as well (Linux; default THREAD_IDLE): they run only on a core no ordinary thread wants. */
  idle?: boolean;
  log?: { error(fields: Record<string, unknown>): void };
}

interface Job<In, Out> {
  id: number;
  input: In;
  resolve: (output: Out) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
  settled?: boolean;
}

interface Thread<In, Out> {
  worker: Worker;
  /** Its modules loaded: a failure before that means the entry cannot be loaded at all. */
  ready: boolean;
  job: Job<In, Out> | null;
  /** Why it is being ended (a time-out), for the log. */
  ended: string | null;
}

export const QUEUE_PER_THREAD = 16;
export const THREAD_JOB_TIMEOUT_MS = 10_000;

/**
 * Work that would hold the event loop, run in a few worker threads (ADR 0041;
 * transit's PlannerPool, ADR 0019, is the same design with per-thread state):
 *
 * - one job per thread at a time, the rest in a bounded queue; over
 *   `queueLimit`, the job is refused at once (`busy('refused')`);
 * - each job has `timeoutMs` from the call, queue included; a thread still
 *   running it then is ended and replaced;
 * - a thread that dies is replaced, and the job it held fails (`busy`), never hangs;
 * - when the entry cannot be loaded at all (not built, a broken install),
 *   every job runs in process from then on, logged once;
 * - threads start on the first job (or `start`), are unref'd while idle, and `close`
 *   ends them, refusing what still waits.
 */
export class ThreadPool<In, Out> {
  readonly name: string;
  private readonly threads: Array<Thread<In, Out>> = [];
  private readonly queue: Array<Job<In, Out>> = [];
  private nextId = 1;
  private closed = false;
  private workerUrl: URL | null;
  private readonly queueLimit: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: ThreadPoolOptions<In, Out>) {
    this.name = options.name;
    this.workerUrl = options.threads > 0 ? options.workerUrl : null;
    this.queueLimit = options.queueLimit ?? QUEUE_PER_THREAD * Math.max(1, options.threads);
    this.timeoutMs = options.timeoutMs ?? THREAD_JOB_TIMEOUT_MS;
    openPools.add(this);
  }

  private idleReported: boolean | null = null;

  /** Whether the latest thread to start runs under SCHED_IDLE (it said so when ready); null before one has. */
  get idleScheduled(): boolean | null {
    return this.idleReported;
  }

  /** Whether jobs run in threads (else on the calling thread). */
  get threaded(): boolean {
    return this.workerUrl !== null && !this.closed;
  }

  /** Jobs waiting for a thread. */
  get queued(): number {
    return this.queue.length;
  }

  /** Threads holding a job. */
  get busy(): number {
    return this.threads.filter((thread) => thread.job !== null).length;
  }

  /** Starts the threads now rather than on the first job (a thread loads its modules in a second or more). */
  start(): void {
    if (this.threaded && this.threads.length === 0) this.startThreads();
  }

  run(input: In): Promise<Out> {
    if (this.closed) return Promise.reject(this.options.busy('shut_down', 'the service is shutting down'));
    if (!this.threaded) return this.runInProcess(input);
    if (this.threads.length === 0) this.startThreads();
    if (!this.threads.some((thread) => thread.job === null) && this.queue.length >= this.queueLimit) {
      threadPoolJobs.inc({ pool: this.name, outcome: 'refused' });
      return Promise.reject(this.options.busy('refused', `${this.name} is at capacity (${this.threads.length} threads busy, ${this.queue.length} waiting); try again shortly`));
    }
    return new Promise<Out>((resolve, reject) => {
      const job: Job<In, Out> = { id: this.nextId++, input, resolve, reject };
      job.timer = setTimeout(() => this.timedOut(job), this.timeoutMs);
      job.timer.unref();
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** Refuses what waits, ends the threads. */
  async close(): Promise<void> {
    this.closed = true;
    openPools.delete(this);
    for (const job of this.queue.splice(0)) this.settle(job, this.options.busy('shut_down', 'the service is shutting down'), undefined, 'shut_down');
    const threads = this.threads.splice(0);
    for (const thread of threads) if (thread.job) this.settle(thread.job, this.options.busy('shut_down', 'the service is shutting down'), undefined, 'shut_down');
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private async runInProcess(input: In): Promise<Out> {
    try {
      const output = await this.options.inProcess(input);
      threadPoolJobs.inc({ pool: this.name, outcome: 'in_process' });
      return output;
    } catch (error) {
      threadPoolJobs.inc({ pool: this.name, outcome: 'failed' });
      throw error;
    }
  }

  private startThreads(): void {
    for (let i = 0; i < this.options.threads; i++) this.threads.push(this.spawn());
  }

  private spawn(): Thread<In, Out> {
    const worker = new Worker(this.workerUrl!, { name: this.name, workerData: { niceness: this.options.niceness ?? THREAD_NICENESS, idle: this.options.idle ?? THREAD_IDLE } satisfies ThreadSetup });
    worker.unref();
    const thread: Thread<In, Out> = { worker, ready: false, job: null, ended: null };
    let failure: Error | null = null;
    worker.on('message', (message: FromThread<Out>) => this.received(thread, message));
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (code) => this.exited(thread, failure ?? new Error(thread.ended ?? `exited with code ${code}`)));
    return thread;
  }

  private received(thread: Thread<In, Out>, message: FromThread<Out>): void {
    if (message.kind === 'ready') {
      thread.ready = true;
      this.idleReported = message.idle === true;
      return;
    }
    const job = thread.job;
    if (!job || job.id !== message.id) return;
    thread.job = null;
    thread.worker.unref();
    if (message.kind === 'done') this.settle(job, null, message.output, 'thread');
    else this.settle(job, new Error(`${this.name} job failed: ${message.error}`), undefined, 'failed');
    this.dispatch();
  }

  private dispatch(): void {
    for (const thread of this.threads) {
      while (thread.job === null && this.queue.length > 0) {
        const job = this.queue.shift()!;
        try {
          thread.worker.postMessage({ kind: 'run', id: job.id, input: job.input } satisfies ToThread<In>);
        } catch (error) {
          // An input that does not clone (DataCloneError) fails alone and holds no thread.
          this.settle(job, error as Error, undefined, 'failed');
          continue;
        }
        thread.job = job;
        thread.worker.ref();
      }
    }
  }

  private exited(thread: Thread<In, Out>, error: Error): void {
    const at = this.threads.indexOf(thread);
    if (at < 0) return;
    const job = thread.job;
    thread.job = null;
    if (!thread.ready && !thread.ended) {
      // The entry itself does not load: run in process from now on.
      this.options.log?.error({ msg: `${this.name} threads cannot start; running its jobs in process`, err: error.message });
      this.workerUrl = null;
      const threads = this.threads.splice(0);
      for (const other of threads) if (other !== thread) void other.worker.terminate();
      for (const waiting of [...threads.map((other) => other.job), ...this.queue.splice(0)]) if (waiting) this.moveInProcess(waiting);
      if (job) this.moveInProcess(job);
      return;
    }
    if (!thread.ended) this.options.log?.error({ msg: `a ${this.name} thread died; replacing it`, err: error.message });
    if (job) this.settle(job, this.options.busy('thread_failed', `the ${this.name} thread failed during this request; try again`), undefined, 'thread_failed');
    if (this.closed) return;
    this.threads[at] = this.spawn();
    this.dispatch();
  }

  private timedOut(job: Job<In, Out>): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    const thread = this.threads.find((candidate) => candidate.job === job);
    if (thread) {
      // A job running that long is a runaway: end the thread (its exit replaces it) so the next jobs get one.
      thread.ended = `a job ran past ${this.timeoutMs} ms`;
      void thread.worker.terminate();
    }
    this.settle(job, this.options.busy('timed_out', `${this.name} took longer than ${this.timeoutMs / 1000} s; try again`), undefined, 'timed_out');
  }

  private moveInProcess(job: Job<In, Out>): void {
    this.options.inProcess(job.input).then(
      (output) => this.settle(job, null, output, 'in_process'),
      (error: Error) => this.settle(job, error, undefined, 'failed'),
    );
  }

  /** Answers a job once, counting how it ended: a late reply after a time-out or a failure changes nothing. */
  private settle(job: Job<In, Out>, error: Error | null, output: Out | undefined, outcome: ThreadJobOutcome): void {
    clearTimeout(job.timer);
    if (job.settled) return;
    job.settled = true;
    threadPoolJobs.inc({ pool: this.name, outcome });
    if (error) job.reject(error);
    else job.resolve(output as Out);
  }
}
