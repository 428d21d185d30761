/**
 * What a ThreadPool (thread-pool.ts) and its threads (serveThread,
 * thread-entry.ts) say to each other. Inputs and outputs are cloned by
 * postMessage (typed arrays and ArrayBuffers included; an output's buffers
 * may be transferred instead of copied).
 */
export type ToThread<In> = { kind: 'run'; id: number; input: In };

export type FromThread<Out> =
  /** The thread's modules are loaded: it can run jobs. `idle`: it runs under SCHED_IDLE (it asked for it and got it). */
  | { kind: 'ready'; idle?: boolean }
  | { kind: 'done'; id: number; output: Out }
  | { kind: 'failed'; id: number; error: string };

/** A job's output, with the buffers to transfer rather than copy (they are unusable in the thread afterwards). */
export interface ThreadAnswer<Out> {
  output: Out;
  transfer?: ArrayBuffer[];
}

/** What a pool's thread is started with (its workerData). */
export interface ThreadSetup {
  /** serveThread lowers its own thread's CPU priority to this (Linux only), when above 0. */
  niceness: number;
  /** serveThread also puts its own thread under the SCHED_IDLE policy (Linux only; docs/adr/0053). */
  idle?: boolean;
}
