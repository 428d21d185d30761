// The part of autocannon 9's programmatic API the HTTP bench uses (the package
// ships no types). See node_modules/autocannon/README.md, "API".
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      headers?: Record<string, string>;
      method?: string;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      /** Requests per second over all connections; unset means no limit. */
      overallRate?: number;
      title?: string;
    }

    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      p50: number;
      p90: number;
      p99: number;
      /** Present on `requests` and `throughput`: the count over the whole run. */
      total?: number;
    }

    interface Result {
      title?: string;
      url: string;
      connections: number;
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      '2xx': number;
      statusCodeStats: Record<string, { count: number }>;
      /** Milliseconds, whole-millisecond resolution. */
      latency: Histogram;
      /** Per-second samples; `total` is the number of completed requests. */
      requests: Histogram & { total: number; sent: number };
      throughput: Histogram;
    }

    /**
     * What a run resolves to off the main thread (autocannon then leaves
     * aggregation to its caller): counts, and histograms still encoded.
     */
    interface RawResult {
      totalCompletedRequests: number;
      /** Requests written, including those in flight when the run stopped. */
      totalRequests: number;
      /** Seconds. */
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      statusCodeStats: Record<string, { count: number }>;
    }

    /** Resolves to a Result on the main thread, to a RawResult in a worker thread. */
    interface Instance extends EventEmitter, PromiseLike<Result | RawResult> {
      stop(): void;
      /** `responseTime` is in milliseconds, with sub-millisecond precision. */
      on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  namespace autocannon {
    /** Turns raw results (see RawResult) into a Result. */
    function aggregateResult(results: RawResult[], options: Options): Result;
  }
  export = autocannon;
}
