import { Worker } from 'node:worker_threads';
import { Counter, Gauge } from 'prom-client';
import type { DatasetVersion } from '../../../platform/src/index.js';
import { metricsRegistry, THREAD_NICENESS } from '../../../platform/src/index.js';
import { TransitBusyError } from '../domain/errors.js';
import { planTrip, type Plan, type PlanRequest } from '../domain/planner.js';
import type { LoadedFeed } from './transit-feeds.js';
import type { FromPlanner, ToPlanner } from '../planning/planner-messages.js';

/** Requests waiting for a free thread, per thread; one more is refused (503 TRANSIT_BUSY). */
export const QUEUE_PER_THREAD = 50;
/** From the call to the answer, queue included; then 503 TRANSIT_BUSY. */
export const PLAN_TIMEOUT_MS = 10_000;

/**
 * How each plan ended (GET /metrics, ADR 0028): `thread` and `in_process` answered; `refused` (queue full),
 * `timed_out`, `thread_failed` and `shut_down` answered 503 TRANSIT_BUSY; `failed`, a search that threw (500).
 */
export const transitPlans = new Counter({
  name: 'transit_plans_total',
  help: 'POST /v2/route/transit plans by outcome: thread, in_process, refused, timed_out, thread_failed, shut_down, failed',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

const openPools = new Set<PlannerPool>();

new Gauge({
  name: 'transit_planner_queue_depth',
  help: 'Transit plans waiting for a planner thread',
  registers: [metricsRegistry],
  collect() {
    let queued = 0;
    for (const pool of openPools) queued += pool.queued;
    this.set(queued);
  },
});

type Outcome = 'thread' | 'in_process' | 'refused' | 'timed_out' | 'thread_failed' | 'shut_down' | 'failed';

export interface PlannerPoolOptions {
  /** Planner threads (TRANSIT_WORKERS); 0 plans on the calling thread. */
  threads: number;
  /** The reference store's folder, where each thread reads the feed versions it compiles. */
  root: string;
  /** The compiled thread entry; null (the TypeScript sources under jest) plans in process. */
  workerUrl?: URL | null;
  queueLimit?: number;
  timeoutMs?: number;
  /** The threads' niceness on Linux (default THREAD_NICENESS, as the platform's pools; 0 leaves them at the process's). */
  niceness?: number;
  log?: { error(fields: Record<string, unknown>): void };
}

interface Job {
  id: number;
  source: DatasetVersion;
  network: LoadedFeed['network'];
  request: PlanRequest;
  resolve: (plan: Plan) => void;
  reject: (error: Error) => void;
  timer?: NodeJS.Timeout;
  /** The thread has its network and is searching (a time-out then ends the thread). */
  started: boolean;
  /** Answered (or refused): later replies change nothing. */
  settled?: boolean;
}

interface Thread {
  worker: Worker;
  /** Its modules loaded: a failure before that means the entry cannot be loaded at all. */
  ready: boolean;
  job: Job | null;
  /** Why it is being replaced (a time-out), for the log. */
  ended: string | null;
}

/**
 * POST /v2/route/transit's searches off the event loop (docs/adr/0019,
 * "Planning off the event loop"): a few worker threads running the compiled
 * `planner.worker.js`, each with its own compiled network of every live feed
 * version (told by `keep` on each swap), one search at a time each. The main
 * thread keeps its network for everything else (nearest feed, departures,
 * turning the plan into the answer).
 *
 * - A bounded queue: when every thread is busy and `queueLimit` requests
 *   wait, the next is refused with 503 TRANSIT_BUSY and Retry-After.
 * - A thread that dies is replaced; the request it held fails with 503
 *   TRANSIT_BUSY, never hangs.
 * - Each request has `timeoutMs` from the call, queue included (503
 *   TRANSIT_BUSY). A thread still compiling finishes and serves the next; one
 *   caught in its search that long is ended and replaced.
 * - Threads are unref'd while idle and terminated by `close`.
 *
 * Plans are made in process when there are no threads, under jest (the
 * TypeScript sources, which a thread cannot load without a loader), and when
 * the thread entry cannot be loaded (logged once).
 */
export class PlannerPool {
  private readonly threads: Thread[] = [];
  private readonly queue: Job[] = [];
  private live: DatasetVersion[] = [];
  private nextId = 1;
  private closed = false;
  private workerUrl: URL | null;
  private readonly queueLimit: number;
  private readonly timeoutMs: number;

  constructor(private readonly options: PlannerPoolOptions) {
    this.workerUrl = options.threads > 0 ? (options.workerUrl === undefined ? compiledEntry() : options.workerUrl) : null;
    this.queueLimit = options.queueLimit ?? QUEUE_PER_THREAD * Math.max(1, options.threads);
    this.timeoutMs = options.timeoutMs ?? PLAN_TIMEOUT_MS;
    openPools.add(this);
  }

  /** The niceness the latest thread to start reported it runs at (Linux: THREAD_NICENESS unless told otherwise); null before one has. */
  readyNiceness: number | null = null;

  /** Whether plans are made in threads (else on the calling thread). */
  get threaded(): boolean {
    return this.workerUrl !== null && !this.closed;
  }

  /** Threads holding a request (searching, compiling, or finishing one that timed out). */
  get busy(): number {
    return this.threads.filter((thread) => thread.job !== null).length;
  }

  /** Requests waiting for a thread. */
  get queued(): number {
    return this.queue.length;
  }

  /** The live feed versions: the threads compile those they lack and drop the rest. Starts the threads on the first call. */
  keep(feeds: readonly LoadedFeed[]): void {
    this.live = feeds.map((feed) => feed.source);
    if (!this.threaded) return;
    if (this.threads.length === 0 && this.live.length > 0) this.startThreads();
    for (const thread of this.threads) send(thread, { kind: 'keep', sources: this.live });
  }

  plan(feed: LoadedFeed, request: PlanRequest): Promise<Plan> {
    if (!this.threaded) return new Promise((resolve) => resolve(counted(planTrip(feed.network, request), 'in_process')));
    if (this.threads.length === 0) this.startThreads();
    if (!this.threads.some((thread) => thread.job === null) && this.queue.length >= this.queueLimit) {
      transitPlans.inc({ outcome: 'refused' });
      return Promise.reject(new TransitBusyError(`transit planning is at capacity (${this.threads.length} threads busy, ${this.queue.length} requests waiting); try again shortly`));
    }
    return new Promise<Plan>((resolve, reject) => {
      const job: Job = { id: this.nextId++, source: feed.source, network: feed.network, request, resolve, reject, started: false };
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
    const busy = new TransitBusyError('the service is shutting down');
    for (const job of this.queue.splice(0)) settle(job, busy, undefined, 'shut_down');
    const threads = this.threads.splice(0);
    for (const thread of threads) if (thread.job) settle(thread.job, busy, undefined, 'shut_down');
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  private startThreads(): void {
    for (let i = 0; i < this.options.threads; i++) this.threads.push(this.spawn());
  }

  private spawn(): Thread {
    const worker = new Worker(this.workerUrl!, { workerData: { root: this.options.root, niceness: this.options.niceness ?? THREAD_NICENESS }, name: 'transit-planner' });
    worker.unref();
    const thread: Thread = { worker, ready: false, job: null, ended: null };
    let failure: Error | null = null;
    worker.on('message', (message: FromPlanner) => this.received(thread, message));
    worker.on('error', (error) => (failure = error));
    worker.on('exit', (code) => this.exited(thread, failure ?? new Error(thread.ended ?? `exited with code ${code}`)));
    if (this.live.length > 0) send(thread, { kind: 'keep', sources: this.live });
    return thread;
  }

  private received(thread: Thread, message: FromPlanner): void {
    if (message.kind === 'ready') {
      thread.ready = true;
      this.readyNiceness = message.niceness;
      return;
    }
    const job = thread.job;
    if (!job || job.id !== message.id) return;
    if (message.kind === 'started') {
      job.started = true;
      return;
    }
    thread.job = null;
    thread.worker.unref();
    if (message.kind === 'planned') settle(job, null, message.plan, 'thread');
    else settle(job, new Error(`transit planning failed: ${message.error}`), undefined, 'failed');
    this.dispatch();
  }

  private dispatch(): void {
    for (const thread of this.threads) {
      while (thread.job === null && this.queue.length > 0) {
        const job = this.queue.shift()!;
        try {
          send(thread, { kind: 'plan', id: job.id, source: job.source, request: job.request });
        } catch (error) {
          // A request that does not clone (DataCloneError) fails alone and holds no thread.
          settle(job, error as Error, undefined, 'failed');
          continue;
        }
        thread.job = job;
        thread.worker.ref();
      }
    }
  }

  private exited(thread: Thread, error: Error): void {
    const at = this.threads.indexOf(thread);
    if (at < 0) return;
    const job = thread.job;
    thread.job = null;
    if (!thread.ready && !thread.ended) {
      // The entry itself does not load (not built, a broken install): plan in process from now on.
      this.options.log?.error({ msg: 'transit planner threads cannot start; planning in process', err: error.message });
      this.workerUrl = null;
      const threads = this.threads.splice(0);
      for (const other of threads) if (other !== thread) void other.worker.terminate();
      for (const waiting of [...threads.map((other) => other.job), ...this.queue.splice(0)]) if (waiting) this.inProcess(waiting);
      if (job) this.inProcess(job);
      return;
    }
    if (!thread.ended) this.options.log?.error({ msg: 'a transit planner thread died; replacing it', err: error.message });
    if (job) settle(job, new TransitBusyError('the transit planner thread failed during this request; try again'), undefined, 'thread_failed');
    if (this.closed) return;
    this.threads[at] = this.spawn();
    this.dispatch();
  }

  private timedOut(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) this.queue.splice(queued, 1);
    const thread = this.threads.find((candidate) => candidate.job === job);
    if (thread && job.started) {
      // Searching for that long is a runaway: end the thread (its exit replaces it) so the next requests get one.
      thread.ended = `a search ran past ${this.timeoutMs} ms`;
      void thread.worker.terminate();
    }
    settle(job, new TransitBusyError(`transit planning took longer than ${this.timeoutMs / 1000} s; try again`), undefined, 'timed_out');
  }

  private inProcess(job: Job): void {
    try {
      settle(job, null, planTrip(job.network, job.request), 'in_process');
    } catch (error) {
      settle(job, error as Error, undefined, 'failed');
    }
  }
}

/** The compiled entry beside this module; none when running the TypeScript sources. */
function compiledEntry(): URL | null {
  return import.meta.url.endsWith('.ts') ? null : new URL('../planning/planner.worker.js', import.meta.url);
}

function send(thread: Thread, message: ToPlanner): void {
  thread.worker.postMessage(message);
}

/** Answers a job once, counting how it ended: a late reply after a time-out or a failure changes nothing. */
function settle(job: Job, error: Error | null, plan?: Plan, outcome?: Outcome): void {
  clearTimeout(job.timer);
  const { resolve, reject, settled } = job;
  if (settled) return;
  job.settled = true;
  if (outcome) transitPlans.inc({ outcome });
  if (error) reject(error);
  else resolve(plan!);
}

function counted(plan: Plan, outcome: Outcome): Plan {
  transitPlans.inc({ outcome });
  return plan;
}
