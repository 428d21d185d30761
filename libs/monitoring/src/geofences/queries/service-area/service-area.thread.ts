import type { OnModuleDestroy } from '@nestjs/common';
import { Worker } from 'node:worker_threads';
import { coverCells, ServiceAreaTooLargeError, type ServiceAreaContainment } from '../../domain/service-area.js';

export interface CellsRequest {
  id: number;
  rings: number[][][];
  resolution: number;
  containment: ServiceAreaContainment;
  compact: boolean;
}

export type CellsReply = { id: number; cells: string } | { id: number; tooLarge: ServiceAreaTooLargeError['counts'] } | { id: number; error: string };

/**
 * A service area's H3 cells off the event loop (issue 31, item 2;
 * docs/adr/0042): `polygonToCells` over 10,000 cells is one synchronous
 * H3 call of 100-300 ms, which no slicing can cut (and cutting the polygon
 * would change the cells' order). It is self-contained, so one worker thread
 * (the compiled `service-area.worker.js`, started on first use, unref'd
 * while idle) computes it; requests queue there in turn, and each key has at
 * most EXPENSIVE_CONCURRENCY_PER_KEY of them in flight. Tests run the
 * TypeScript sources, which a worker cannot load: there the cells are
 * computed in process unless the compiled worker's URL is given.
 */
export class ServiceAreaThread implements OnModuleDestroy {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, { resolve: (cells: string[]) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private readonly workerUrl: URL | null;

  constructor(workerUrl?: URL | null) {
    this.workerUrl = workerUrl !== undefined ? workerUrl : import.meta.url.endsWith('.ts') ? null : new URL('./service-area.worker.js', import.meta.url);
  }

  /** The cells of rings already checked against the estimate (checkServiceAreaEstimate); ServiceAreaTooLargeError as in process. */
  cells(rings: number[][][], resolution: number, containment: ServiceAreaContainment, compact: boolean): Promise<string[]> {
    if (!this.workerUrl) return new Promise((resolve) => resolve(coverCells(rings, resolution, containment, compact)));
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<string[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, rings, resolution, containment, compact } satisfies CellsRequest);
    });
  }

  async onModuleDestroy(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerUrl!, { name: 'service-area' });
    worker.unref();
    worker.on('message', (reply: CellsReply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (!waiting) return;
      if ('cells' in reply) waiting.resolve(reply.cells === '' ? [] : reply.cells.split(','));
      else if ('tooLarge' in reply) waiting.reject(new ServiceAreaTooLargeError(reply.tooLarge.cells, reply.tooLarge.limit, reply.tooLarge.compact));
      else waiting.reject(new Error(reply.error));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the service-area thread exited with ${code}`)));
    this.worker = worker;
    return worker;
  }
}
