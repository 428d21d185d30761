import type { DatasetVersion } from '../../../platform/src/index.js';
import { WorkPool } from '../../../platform/src/index.js';
import { TransitBusyError } from '../domain/errors.js';
import { planTrip, type Plan, type PlanRequest } from '../domain/planner.js';
import type { PlanTask } from '../planning/planner-messages.js';
import type { LoadedFeed } from './transit-feeds.js';

/** Requests waiting for a free thread, per thread; one more is refused (503 TRANSIT_BUSY). */
export const QUEUE_PER_THREAD = 50;
/** From the call to the answer, queue included; then 503 TRANSIT_BUSY. */
export const PLAN_TIMEOUT_MS = 10_000;

export interface PlannerPoolOptions {
  /** Planner threads (TRANSIT_WORKERS); 0 plans on the calling thread. */
  threads: number;
  /** The reference store's folder, where each thread reads the feed versions it compiles. */
  root: string;
  /** The compiled thread module; null (the TypeScript sources under jest) plans in process. */
  workerUrl?: URL | null;
  queueLimit?: number;
  timeoutMs?: number;
  log?: { error(fields: Record<string, unknown>): void };
}

/**
 * POST /v2/route/transit's searches off the event loop (docs/adr/0019,
 * "Planning off the event loop"), on the platform's WorkPool (pool
 * `transit-planner` in `thread_pool_jobs_total`): threads running the
 * compiled `planner.worker.js`, each with its own compiled network of every
 * live feed version, one search at a time each. The main thread keeps its
 * network for everything else (nearest feed, departures, turning the plan
 * into the answer). A full queue, a time-out (the thread is then ended and
 * replaced), a failed thread or a shut-down answer 503 TRANSIT_BUSY with
 * Retry-After. Plans are made in process without threads and under jest.
 */
export class PlannerPool {
  private readonly pool: WorkPool<PlanTask, Plan>;
  private live: DatasetVersion[] = [];

  constructor(options: PlannerPoolOptions) {
    this.pool = new WorkPool({
      name: 'transit-planner',
      threads: options.threads,
      workerUrl: options.workerUrl === undefined ? compiledEntry() : options.workerUrl,
      // Never used: each plan gives its in-process form, which needs the main thread's network.
      inProcess: () => Promise.reject(new Error('a plan is made in process with its feed')),
      busy: (_reason, message) => new TransitBusyError(message),
      queueLimit: options.queueLimit ?? QUEUE_PER_THREAD * Math.max(1, options.threads),
      timeoutMs: options.timeoutMs ?? PLAN_TIMEOUT_MS,
      workerData: { root: options.root },
      log: options.log,
    });
  }

  /** Whether plans are made in threads (else on the calling thread). */
  get threaded(): boolean {
    return this.pool.threaded;
  }

  /** Requests waiting for a thread. */
  get queued(): number {
    return this.pool.queued;
  }

  /** The live feed versions: each thread compiles those it lacks and drops the rest at its next plan. */
  keep(feeds: readonly LoadedFeed[]): void {
    this.live = feeds.map((feed) => feed.source);
    if (this.live.length > 0) this.pool.start();
  }

  plan(feed: LoadedFeed, request: PlanRequest): Promise<Plan> {
    return this.pool.run({ live: this.live, source: feed.source, request }, { inProcess: () => planTrip(feed.network, request) });
  }

  /** Refuses what waits, ends the threads. */
  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The compiled entry beside this module; none when running the TypeScript sources. */
function compiledEntry(): URL | null {
  return import.meta.url.endsWith('.ts') ? null : new URL('../planning/planner.worker.js', import.meta.url);
}
