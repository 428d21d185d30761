import type { OnModuleDestroy } from '@nestjs/common';
import { ThreadPoolBusyError, WorkPool } from '../../../../../platform/src/index.js';
import { ServiceAreaTooLargeError, type ServiceAreaContainment } from '../../domain/service-area.js';
import { cellsOutcome, type CellsOutcome, type CellsRequest } from './service-area.cells.js';

/** 503 SERVICE_AREA_BUSY: the service-area thread's queue is full, or an area ran past its time (or its thread failed). */
export class ServiceAreaBusyError extends ThreadPoolBusyError {
  readonly code = 'SERVICE_AREA_BUSY';
}

/** From the call to the answer, queue included (the largest area takes ~0.3 s of the thread). */
export const SERVICE_AREA_TIMEOUT_MS = 20_000;

/**
 * A service area's answer off the event loop (issue 31, item 2;
 * docs/adr/0042, 0044): `polygonToCells` over 10,000 cells is one synchronous
 * H3 call of 100-300 ms, which no slicing can cut (and cutting the polygon
 * would change the cells' order); naming the cells and writing the ~400 kB of
 * JSON took the loop another ~5 ms an answer. It is self-contained, so one thread of the
 * platform's WorkPool (the compiled `service-area.worker.js`; queue limit,
 * time-out, replacement of a failed thread, metrics
 * `thread_pool_jobs_total{pool="service-area"}`) computes it, and each key
 * has at most EXPENSIVE_CONCURRENCY_PER_KEY areas in flight. Tests run the
 * TypeScript sources, which a thread cannot load: there the cells are
 * computed in process unless the compiled worker's URL is given.
 */
export class ServiceAreaThread implements OnModuleDestroy {
  private readonly pool: WorkPool<CellsRequest, CellsOutcome>;

  constructor(workerUrl?: URL | null) {
    this.pool = new WorkPool({
      name: 'service-area',
      threads: 1,
      workerUrl: workerUrl !== undefined ? workerUrl : import.meta.url.endsWith('.ts') ? null : new URL('./service-area.worker.js', import.meta.url),
      inProcess: async (request) => cellsOutcome(request),
      busy: (reason, message) => new ServiceAreaBusyError(message, reason),
      timeoutMs: SERVICE_AREA_TIMEOUT_MS,
    });
  }

  /**
   * The envelope of the answer, as bytes, for rings already checked against the estimate (checkServiceAreaEstimate);
   * ServiceAreaTooLargeError as in process.
   */
  async answer(rings: number[][][], resolution: number, containment: ServiceAreaContainment, compact: boolean): Promise<Buffer> {
    const outcome = await this.pool.run({ rings, resolution, containment, compact });
    if ('tooLarge' in outcome) throw new ServiceAreaTooLargeError(outcome.tooLarge.cells, outcome.tooLarge.limit, outcome.tooLarge.compact);
    // A thread's bytes arrive as a plain Uint8Array.
    return Buffer.from(outcome.body.buffer, outcome.body.byteOffset, outcome.body.byteLength);
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.close();
  }
}
