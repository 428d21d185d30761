import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Followers } from '../followers/followers.js';
import type { EventStore } from '../event-store/event-store.port.js';
import type { JobQueue } from '../queue/job-queue.port.js';
import { ConcurrencyError } from '../event-store/errors.js';

/**
 * The process's Prometheus metrics (ADR 0028), served at `GET /metrics` to the
 * admin key. Labels are bounded: the route is Fastify's pattern
 * (`/v2/reverse`, `/v2/places/:id`), never the raw URL; unmatched requests are
 * counted under `unmatched`.
 */
export const metricsRegistry = new Registry();
const instrumented = Symbol('instrumented');

const SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [metricsRegistry],
});

export const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time from receiving a request to finishing its answer, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: SECONDS,
  registers: [metricsRegistry],
});

export const rateLimitRejections = new Counter({
  name: 'rate_limit_rejections_total',
  help: 'Requests refused with 429 (quota or per-IP throttle), by route pattern',
  labelNames: ['route'] as const,
  registers: [metricsRegistry],
});

export const eventStoreAppendDuration = new Histogram({
  name: 'event_store_append_duration_seconds',
  help: 'Latency of event-store appends, by outcome (ok, conflict, error)',
  labelNames: ['outcome'] as const,
  buckets: SECONDS,
  registers: [metricsRegistry],
});

/** Times every append of `store` (once per instance; the store's behaviour is unchanged). */
export function instrumentAppends(store: EventStore): EventStore {
  const marked = store as EventStore & { [instrumented]?: true };
  if (marked[instrumented]) return store;
  const append = store.append.bind(store);
  marked.append = async (stream, events, expected) => {
    const stop = eventStoreAppendDuration.startTimer();
    try {
      const result = await append(stream, events, expected);
      stop({ outcome: 'ok' });
      return result;
    } catch (error) {
      stop({ outcome: error instanceof ConcurrencyError ? 'conflict' : 'error' });
      throw error;
    }
  };
  marked[instrumented] = true;
  return store;
}


/**
 * Node's own metrics in the same registry (prom-client's defaults, `nodejs_`
 * and `process_`): the event loop's delay (`nodejs_eventloop_lag_p50_seconds`,
 * `_p99_`, `_max_`: over the time since the last scrape, sampled every 10 ms),
 * garbage-collection pauses by kind (`nodejs_gc_duration_seconds`), heap,
 * CPU and open handles. Called by the processes that serve HTTP; once per
 * registry. What a request waits for before its handler runs is the loop's
 * delay, which the request durations above cannot show.
 */
export function collectProcessMetrics(): void {
  if (metricsRegistry.getSingleMetric('nodejs_eventloop_lag_p99_seconds')) return;
  collectDefaultMetrics({ register: metricsRegistry });
}

/** Records one answered request; `route` is the matched pattern or undefined. */
export function recordRequest(method: string, route: string | undefined, status: number, seconds: number): void {
  const labels = { method, route: route ?? 'unmatched', status: String(status) };
  httpRequests.inc(labels);
  httpDuration.observe(labels, seconds);
  if (status === 429) rateLimitRejections.inc({ route: labels.route });
}

/**
 * Follower (projection, view, relay) lag in log positions: the log's head
 * minus what each follower handled, read when Prometheus scrapes.
 */
export function watchFollowers(followers: Followers, store: EventStore): void {
  followerSources.push({ followers: new WeakRef(followers), store: new WeakRef(store) });
}
// Weak: a test process boots many services; a stopped one's followers must not be kept alive by the gauges.
const followerSources: { followers: WeakRef<Followers>; store: WeakRef<EventStore> }[] = [];
function liveSources(): { followers: Followers; store: EventStore }[] {
  const live = [];
  for (const source of followerSources) {
    const followers = source.followers.deref();
    const store = source.store.deref();
    if (followers && store) live.push({ followers, store });
  }
  return live;
}

/**
 * A follower's lag is measured against the newest event of the streams it
 * follows, not the head of the whole log: a follower of `api_key-` that has
 * handled every key event is 0 behind however many access events were
 * appended since (it reported ~198,000 while idle, issue 31). An adapter
 * without `lastPositionOf` (EventStoreDB) is measured against the head.
 */
new Gauge({
  name: 'log_follower_lag_positions',
  help: 'Log positions between the newest event of the streams each follower (projections included) follows and what it has handled; 0 when it has handled them all',
  labelNames: ['follower'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const { followers, store } of liveSources()) {
      const head = await store.headPosition().catch(() => undefined);
      if (head === undefined) continue;
      const newest = new Map<string, bigint | undefined>();
      for (const follower of followers.positions()) {
        const streams = follower.streamPrefixes.join('\u0000');
        if (!newest.has(streams)) {
          newest.set(streams, follower.streamPrefixes.length === 0 || !store.lastPositionOf ? head : await store.lastPositionOf(follower.streamPrefixes).catch(() => undefined));
        }
        const last = newest.get(streams);
        if (last === undefined) continue;
        const lag = last - follower.position;
        this.set({ follower: follower.name }, Number(lag > 0n ? lag : 0n));
      }
    }
  },
});

new Gauge({
  name: 'log_follower_failures',
  help: 'Consecutive failures of each follower (stuck after a few)',
  labelNames: ['follower'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const { followers } of liveSources()) for (const status of followers.statuses()) this.set({ follower: status.name }, status.failures);
  },
});

export const queueJobsAdded = new Counter({
  name: 'queue_jobs_added_total',
  help: 'Jobs added to each queue by this process (deduplicated adds not counted)',
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
});

export const queueJobsRun = new Counter({
  name: 'queue_jobs_run_total',
  help: 'Job runs by queue and outcome (ok, failed: a failed run is retried or given up); the webhook queue counts delivery outcomes',
  labelNames: ['queue', 'outcome'] as const,
  registers: [metricsRegistry],
});

export const queueJobsRunning = new Gauge({
  name: 'queue_jobs_running',
  help: 'Jobs being run now by this process, by queue',
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
});

/**
 * Queue depth (jobs waiting, delayed or running) of the queues the process's
 * contexts declare (`jobs` in their manifests), asked of the queue when
 * Prometheus scrapes: on BullMQ every process sees the shared depth, on the
 * embedded queue the all-in-one process its own.
 */
export function watchQueueDepth(queue: JobQueue, names: readonly string[]): void {
  queueSources.push({ queue: new WeakRef(queue), names: [...new Set(names)] });
}
// Weak, as the follower sources: a stopped service's queue is not kept alive by the gauge.
const queueSources: { queue: WeakRef<JobQueue>; names: string[] }[] = [];

new Gauge({
  name: 'queue_depth',
  help: 'Jobs not yet finished (waiting, delayed or running), by queue, read at scrape time',
  labelNames: ['queue'] as const,
  registers: [metricsRegistry],
  async collect() {
    this.reset();
    for (const source of queueSources) {
      const queue = source.queue.deref();
      if (!queue) continue;
      for (const name of source.names) {
        // A closed or unreachable queue: no sample rather than a failed scrape (its health check says why).
        const depth = await queue.depth(name).catch(() => undefined);
        if (depth !== undefined) this.set({ queue: name }, depth);
      }
    }
  },
});

/**
 * A gauge summing a count over the sources registered with it, read at scrape
 * time; a source nothing else holds any more drops out. Answers the function
 * that registers a source.
 */
function summedGauge<Source extends object>(name: string, help: string, count: (source: Source) => number): (source: Source) => void {
  const sources: WeakRef<Source>[] = [];
  new Gauge({
    name,
    help,
    registers: [metricsRegistry],
    collect() {
      let total = 0;
      for (let i = sources.length - 1; i >= 0; i--) {
        const source = sources[i].deref();
        if (source) total += count(source);
        else sources.splice(i, 1);
      }
      this.set(total);
    },
  });
  return (source) => void sources.push(new WeakRef(source));
}

/** Reports the write-transaction callbacks `store` has waiting for its next batch: the embedded stores (docs/adr/0049). */
export const watchTransactionQueue = summedGauge<{ readonly transactionsWaiting: number }>(
  'lmdb_transactions_waiting',
  'Write-transaction callbacks of the embedded stores waiting for the next batch (docs/adr/0049), read at scrape time',
  (store) => store.transactionsWaiting,
);

/** Counts adds and runs of `queue` (once per instance; its behaviour is unchanged). */
export function instrumentQueue(queue: JobQueue): JobQueue {
  const marked = queue as JobQueue & { [instrumented]?: true };
  if (marked[instrumented]) return queue;
  const add = queue.add.bind(queue);
  const process = queue.process.bind(queue);
  marked.add = async (name, jobName, data, options) => {
    const result = await add(name, jobName, data, options);
    if (result.added) queueJobsAdded.inc({ queue: name });
    return result;
  };
  marked.process = (name, handler, options) =>
    process(
      name,
      async (job) => {
        queueJobsRunning.inc({ queue: name });
        try {
          await handler(job as never);
          queueJobsRun.inc({ queue: name, outcome: 'ok' });
        } catch (error) {
          queueJobsRun.inc({ queue: name, outcome: 'failed' });
          throw error;
        } finally {
          queueJobsRunning.dec({ queue: name });
        }
      },
      options,
    );
  marked[instrumented] = true;
  return queue;
}
