import { TimeoutError } from '../errors.js';

/** Something a command can wait on until it has applied a log position (read your own write). */
export interface PositionWaiter {
  waitFor(position: bigint, timeoutMs: number): Promise<void>;
}

/**
 * Every read model a command may wait for, by name: projections (in this
 * process, or by polling the checkpoints the worker writes) and in-memory
 * views. A command that names a read model nobody registered is refused at
 * start-up (`assertKnown`), never at the first request.
 */
export class ReadModels {
  private readonly waiters = new Map<string, PositionWaiter>();

  register(name: string, waiter: PositionWaiter): this {
    if (this.waiters.has(name)) throw new Error(`read model ${name} registered twice`);
    this.waiters.set(name, waiter);
    return this;
  }

  has(name: string): boolean {
    return this.waiters.has(name);
  }

  names(): string[] {
    return [...this.waiters.keys()];
  }

  /** Resolves once `name` has applied `position`; TimeoutError (504 TIMEOUT) after `timeoutMs`. */
  waitFor(name: string, position: bigint, timeoutMs: number): Promise<void> {
    const waiter = this.waiters.get(name);
    if (!waiter) throw new Error(`read model ${name} is not registered in this process`);
    return waiter.waitFor(position, timeoutMs).catch((error: unknown) => {
      if (error instanceof TimeoutError) throw new TimeoutError(`read model ${name} did not catch up within ${timeoutMs} ms`);
      throw error;
    });
  }

  assertKnown(names: readonly string[], owner: string): void {
    const unknown = names.filter((name) => !this.waiters.has(name));
    if (unknown.length > 0) throw new Error(`${owner} waits for unregistered read models: ${unknown.join(', ')}`);
  }
}
