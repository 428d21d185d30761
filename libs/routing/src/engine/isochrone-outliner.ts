import { Worker } from 'node:worker_threads';
import { outlineIsochrone, type IsochroneOutline } from './isochrone-outline.js';

type Reply = { id: number; outline: IsochroneOutline | null } | { id: number; error: string };

/**
 * Outlines isochrones (outlineIsochrone) off the event loop: one worker
 * thread running the compiled `isochrone-outline.worker.js`, started on first
 * use and unref'd while idle; the samples are moved to it, not copied.
 * Tests run the TypeScript sources, which a worker cannot load: there it
 * outlines in process unless given the compiled worker's URL.
 */
export class IsochroneOutliner {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, { resolve: (outline: IsochroneOutline | null) => void; reject: (error: Error) => void }>();
  private nextId = 0;
  private readonly workerUrl: URL | null;

  constructor(workerUrl?: URL | null) {
    this.workerUrl = workerUrl !== undefined ? workerUrl : import.meta.url.endsWith('.ts') ? null : new URL('./isochrone-outline.worker.js', import.meta.url);
  }

  /** `samples` is handed over (its buffer moves to the thread): do not use it afterwards. */
  outline(samples: Float64Array, count: number): Promise<IsochroneOutline | null> {
    if (!this.workerUrl) return new Promise((resolve) => resolve(outlineIsochrone(samples, count)));
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, samples, count }, [samples.buffer as ArrayBuffer]);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerUrl!, { name: 'isochrone-outline' });
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (!waiting) return;
      if ('outline' in reply) waiting.resolve(reply.outline);
      else waiting.reject(new Error(reply.error));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the isochrone outline thread exited with ${code}`)));
    this.worker = worker;
    return worker;
  }
}
