import type { RootDatabase } from 'lmdb';

/**
 * lmdb-js options for an LMDB environment that several processes write at
 * once: the embedded event store and the embedded read store (the job queue
 * and the rate limiter hold a directory lock, so one process each).
 *
 * `overlappingSync: false`. lmdb-js's default lets the next write transaction
 * start while the last one's fsync is still running. With two processes
 * appending to one stream, about one run in 25 lost an acknowledged write: a
 * process was told revision n was stored, and the next transaction (its own or
 * the other process's) started from the state before it and wrote its event
 * at the same position, so the first was gone for every reader. Without
 * overlapping syncs, 220 runs of the same stress lost nothing (ADR 0046).
 * Each commit now syncs before the write lock is released; group commit still
 * shares one fsync between the writes queued together.
 */
export const WRITTEN_BY_SEVERAL_PROCESSES = { overlappingSync: false } as const;

/** Main-thread time one batch's transaction callbacks may take before the rest wait for the next batch. */
export const TRANSACTION_TURN_MS = 2;

interface Queued {
  callback: () => unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * lmdb-js runs every asynchronous transaction callback queued for a batch in
 * one event-loop turn, on the main thread, inside the batch's write
 * transaction. Under a stream of writes that turn took 10-20 ms, and every
 * other request waited behind it (ADR 0049).
 *
 * `TransactionTurns.run` queues its callback here instead, and one lmdb-js
 * callback per batch runs the queue, in call order, until the batch has taken
 * TRANSACTION_TURN_MS; the rest wait for the next batch, whose callback is
 * queued as soon as this one ends. The first callback of a batch always runs,
 * so the queue always moves. As with `env.transaction`, a callback's promise
 * settles when its batch commits, with its result or what it threw; a throwing
 * callback does not roll back the writes it made before it threw.
 *
 * Order: callbacks take effect in `run` order (the pipelined projections rely
 * on it: ReadStore.writesInCallOrder). Every transaction callback on an
 * environment must go through its one TransactionTurns, or a callback outside
 * it could overtake the queue.
 */
export class TransactionTurns {
  private readonly queue: Queued[] = [];
  /** An lmdb-js callback is queued that will run this queue. */
  private pumping = false;

  constructor(private readonly env: RootDatabase) {}

  run<T>(callback: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ callback, resolve: resolve as (value: unknown) => void, reject });
      if (!this.pumping) this.pump();
    });
  }

  /** Callbacks waiting for a batch. */
  get waiting(): number {
    return this.queue.length;
  }

  private pump(): void {
    this.pumping = true;
    const ran: Array<{ entry: Queued; threw: boolean; value: unknown }> = [];
    let started = false;
    const committed = this.env.transaction(() => {
      started = true;
      const start = performance.now();
      let taken = 0;
      do {
        const entry = this.queue[taken++];
        try {
          ran.push({ entry, threw: false, value: entry.callback() });
        } catch (error) {
          ran.push({ entry, threw: true, value: error });
        }
      } while (taken < this.queue.length && performance.now() - start < TRANSACTION_TURN_MS);
      this.queue.splice(0, taken);
      // After this batch's callbacks (a transaction asked for now would join this batch): the rest go in the next.
      queueMicrotask(() => {
        this.pumping = false;
        if (this.queue.length > 0) this.pump();
      });
    });
    committed.then(
      () => {
        for (const { entry, threw, value } of ran) (threw ? entry.reject : entry.resolve)(value);
      },
      (error: unknown) => {
        for (const { entry } of ran) entry.reject(error);
        if (started) return;
        // The batch never ran this queue (the environment closed): nothing queued will run.
        for (const entry of this.queue.splice(0)) entry.reject(error);
        this.pumping = false;
      },
    );
  }
}
