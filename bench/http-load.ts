import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';

/**
 * The load generator, run in a worker thread: on the server's own event loop
 * autocannon would steal the very CPU it measures. It records each response's
 * latency itself, because autocannon's histogram keeps whole milliseconds,
 * too coarse for a ratio of two sub-10 ms figures.
 */

export interface LoadRequest {
  url: string;
  headers: Record<string, string>;
  connections: number;
  warmupSeconds: number;
  seconds: number;
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

export type LoadMessage = { ok: true; outcome: LoadOutcome } | { ok: false; error: string };

async function load(request: LoadRequest): Promise<LoadOutcome> {
  const common = { url: request.url, headers: request.headers, connections: request.connections, timeout: 10 };
  const warmup = raw(await autocannon({ ...common, duration: request.warmupSeconds }));
  const latencies: number[] = [];
  const instance = autocannon({ ...common, duration: request.seconds });
  instance.on('response', (_client, _status, _bytes, responseTime) => {
    latencies.push(responseTime);
  });
  const result = raw(await instance);
  const reference = autocannon.aggregateResult([result], { ...common, duration: request.seconds });
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

/** Off the main thread autocannon resolves to its raw, unaggregated result. */
function raw(result: autocannon.Result | autocannon.RawResult): autocannon.RawResult {
  if (!('totalCompletedRequests' in result)) throw new Error('autocannon aggregated its result on a worker thread; expected the raw form');
  return result;
}

if (parentPort && workerData?.benchLoad) {
  const port = parentPort;
  load(workerData.benchLoad as LoadRequest).then(
    (outcome) => port.postMessage({ ok: true, outcome } satisfies LoadMessage, [outcome.latenciesMs.buffer]),
    (error: unknown) => port.postMessage({ ok: false, error: error instanceof Error ? error.stack ?? error.message : String(error) } satisfies LoadMessage),
  );
}
