import { Worker } from 'node:worker_threads';
import { CapError, type CapAlert } from './parse-cap.js';
import { readCap } from '../public/read-cap.js';
import { CapSignatureError } from './verify-signature.js';

type Reply = { id: number; alert: CapAlert } | { id: number; error: string; kind: 'signature' | 'cap' | 'other' };

/**
 * Reads CAP documents (readCap) off the event loop: one worker thread running
 * the compiled `cap-reader.worker.js`, started on first use and kept (unref'd)
 * for the next poll. A large alert takes a few hundred milliseconds to parse,
 * validate and verify (docs/adr/0026); the api must not stall that long.
 * Tests run the TypeScript sources, which a worker cannot load without a
 * loader: there it reads in-process unless given the compiled worker's URL.
 */
export class CapReader {
  private worker: Worker | null = null;
  private readonly pending = new Map<number, { resolve: (alert: CapAlert) => void; reject: (error: Error) => void }>();
  private nextId = 0;

  constructor(private readonly workerUrl: URL | null = import.meta.url.endsWith('.ts') ? null : new URL('./cap-reader.worker.js', import.meta.url)) {}

  /** The alert, or a CapError (CapSignatureError) saying why the document is refused. */
  read(xml: string): Promise<CapAlert> {
    if (!this.workerUrl) return new Promise((resolve) => resolve(readCap(xml)));
    const worker = this.started();
    const id = this.nextId++;
    return new Promise<CapAlert>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, xml });
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (worker) await worker.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(this.workerUrl!);
    worker.unref();
    worker.on('message', (reply: Reply) => {
      const waiting = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (!waiting) return;
      if ('alert' in reply) waiting.resolve(reply.alert);
      else waiting.reject(reply.kind === 'signature' ? new CapSignatureError(reply.error) : reply.kind === 'cap' ? new CapError(reply.error) : new Error(reply.error));
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = null;
      for (const waiting of this.pending.values()) waiting.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the CAP reader thread exited with ${code}`)));
    this.worker = worker;
    return worker;
  }
}
