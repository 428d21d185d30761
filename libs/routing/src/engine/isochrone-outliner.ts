import { ThreadPoolBusyError, WorkPool } from '../../../platform/src/index.js';
import { outlineIsochrone, type IsochroneOutline } from './isochrone-outline.js';

export interface OutlineRequest {
  samples: Float64Array;
  count: number;
}

/** 503 ISOCHRONE_BUSY: the outline thread's queue is full, or an outline ran past its time (or its thread failed). */
export class IsochroneBusyError extends ThreadPoolBusyError {
  readonly code = 'ISOCHRONE_BUSY';
}

/** From the call to the answer, queue included (a 60-minute outline takes up to ~0.5 s of the thread). */
export const OUTLINE_TIMEOUT_MS = 20_000;

/**
 * Outlines isochrones (outlineIsochrone) off the event loop: one thread of
 * the platform's WorkPool running the compiled `isochrone-outline.worker.js`
 * (queue limit, time-out, replacement of a failed thread, metrics
 * `thread_pool_jobs_total{pool="isochrone-outline"}`). The samples are copied
 * to it (one typed array: a memory copy). Tests run the TypeScript sources,
 * which a thread cannot load: there it outlines in process unless given the
 * compiled worker's URL.
 */
export class IsochroneOutliner {
  private readonly pool: WorkPool<OutlineRequest, IsochroneOutline | null>;

  constructor(workerUrl?: URL | null) {
    this.pool = new WorkPool({
      name: 'isochrone-outline',
      threads: 1,
      workerUrl: workerUrl !== undefined ? workerUrl : import.meta.url.endsWith('.ts') ? null : new URL('./isochrone-outline.worker.js', import.meta.url),
      inProcess: async ({ samples, count }) => outlineIsochrone(samples, count),
      busy: (reason, message) => new IsochroneBusyError(message, reason),
      timeoutMs: OUTLINE_TIMEOUT_MS,
    });
  }

  outline(samples: Float64Array, count: number): Promise<IsochroneOutline | null> {
    return this.pool.run({ samples, count });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
