import autocannon from 'autocannon';

/**
 * The load generator, run in a child process: on the server's own event loop
 * autocannon would steal the very CPU it measures, and in a thread of the
 * server's process its CPU time would be counted with the server's
 * (`process.cpuUsage` covers every thread). It records each response's
 * latency itself, because autocannon's histogram keeps whole milliseconds,
 * too coarse for a ratio of two sub-10 ms figures.
 */

export interface LoadRequest {
  url: string;
  headers: Record<string, string>;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  /** Requests per second over all connections (open loop); unset: as fast as the answers come (closed loop). */
  overallRate?: number;
  /** API keys sent in turn as X-API-Key, one per request: a fast run can exceed one key's daily quota. */
  keys?: string[];
  /** GET unless given; a POST sends `body` (JSON) with every request. */
  method?: 'GET' | 'POST';
  body?: string;
}

export interface LoadOutcome {
  /** Completed responses in the warm-up (the server handled them too). */
  warmupCompleted: number;
  warmupSent: number;
  completed: number;
  /** Requests written, including those still in flight when the run stopped. */
  sent: number;
  seconds: number;
  latenciesMs: Float64Array<ArrayBuffer>;
  non2xx: number;
  errors: number;
  timeouts: number;
  /** Warm-up included, like the failure counts. */
  statusCodes: Record<string, number>;
  /** autocannon's own whole-millisecond figures, kept for reference. */
  autocannon: { p50: number; p99: number; requestsPerSecond: number };
}

/** `measuring` is sent when the warm-up is over, so the parent can start counting its CPU time there. */
export type LoadMessage = { measuring: true } | { ok: true; outcome: LoadOutcome } | { ok: false; error: string };

/** Set in the child's environment by the parent that forks this file. */
export const LOAD_CHILD_ENV = 'BENCH_LOAD_CHILD';

/** What a run's counts are, whichever form autocannon resolved to. */
interface Counts {
  totalCompletedRequests: number;
  totalRequests: number;
  duration: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}

async function load(request: LoadRequest, measuring: () => void): Promise<LoadOutcome> {
  const keys = request.keys ?? [];
  let next = 0;
  const rotation = keys.length > 0 ? { requests: [{ setupRequest: (sent: { headers?: Record<string, string> }) => ({ ...sent, headers: { ...sent.headers, 'x-api-key': keys[next++ % keys.length] } }) }] } : {};
  const common = { url: request.url, method: request.method ?? 'GET', body: request.body, headers: request.headers, connections: request.connections, timeout: 10, overallRate: request.overallRate, ...rotation };
  const warmup = counts(await autocannon({ ...common, duration: request.warmupSeconds }));
  measuring();
  const latencies: number[] = [];
  const instance = autocannon({ ...common, duration: request.seconds });
  instance.on('response', (_client, _status, _bytes, responseTime) => {
    latencies.push(responseTime);
  });
  const aggregated = await instance;
  const result = counts(aggregated);
  const reference = 'totalCompletedRequests' in aggregated ? autocannon.aggregateResult([aggregated], { ...common, duration: request.seconds }) : aggregated;
  const latenciesMs = new Float64Array(new ArrayBuffer(latencies.length * Float64Array.BYTES_PER_ELEMENT));
  latenciesMs.set(latencies);
  const statusCodes: Record<string, number> = {};
  for (const run of [warmup, result]) {
    for (const [code, { count }] of Object.entries(run.statusCodeStats)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  }
  return {
    warmupCompleted: warmup.totalCompletedRequests,
    warmupSent: warmup.totalRequests,
    completed: result.totalCompletedRequests,
    sent: result.totalRequests,
    seconds: result.duration,
    latenciesMs,
    // Failures in the warm-up count too: the audit check expects those requests as well.
    non2xx: result.non2xx + warmup.non2xx,
    errors: result.errors + warmup.errors,
    timeouts: result.timeouts + warmup.timeouts,
    statusCodes,
    autocannon: { p50: reference.latency.p50, p99: reference.latency.p99, requestsPerSecond: Math.round(result.totalCompletedRequests / result.duration) },
  };
}

/** On a main thread autocannon resolves to its aggregated result, off it to the raw one: the counts of either. */
function counts(result: autocannon.Result | autocannon.RawResult): Counts {
  if ('totalCompletedRequests' in result) return result;
  return {
    totalCompletedRequests: result.requests.total,
    totalRequests: result.requests.sent,
    duration: result.duration,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodeStats: result.statusCodeStats,
  };
}

if (process.env[LOAD_CHILD_ENV] === '1' && process.send) {
  const send = (message: LoadMessage) => new Promise<void>((resolve) => process.send!(message, undefined, {}, () => resolve()));
  process.once('message', (request: LoadRequest) => {
    load(request, () => void send({ measuring: true })).then(
      (outcome) => send({ ok: true, outcome }),
      (error: unknown) => send({ ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
    ).finally(() => process.disconnect());
  });
}
