import { TimeoutError } from '../errors.js';
import type { ReadStore } from '../read-store/read-store.port.js';
import { checkpointName, type Projection } from './projection.js';
import type { ProjectionRunner } from './projection-runner.js';

/**
 * Read-your-own-write: a command that appended at `position` waits until the
 * named projection has applied it before answering.
 */
export interface ProjectionWaiter {
  waitFor(projection: string, position: bigint, timeoutMs: number): Promise<void>;
}

export const PROJECTION_WAITER = Symbol('ProjectionWaiter');

/** When the projections run in this process (all-in-one, worker): notified directly. */
export class InProcessWaiter implements ProjectionWaiter {
  constructor(private readonly runner: ProjectionRunner) {}
  waitFor(projection: string, position: bigint, timeoutMs: number): Promise<void> {
    return this.runner.waitFor(projection, position, timeoutMs);
  }
}

/** When they run in the worker (production api): polls the checkpoint the worker writes. */
export class CheckpointPollingWaiter implements ProjectionWaiter {
  constructor(
    private readonly readStore: ReadStore,
    private readonly projections: Projection[],
    private readonly intervalMs = 25,
  ) {}

  async waitFor(projection: string, position: bigint, timeoutMs: number): Promise<void> {
    const found = this.projections.find((candidate) => candidate.name === projection);
    if (!found) throw new Error(`unknown projection ${projection}`);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const checkpoint = (await this.readStore.getCheckpoint(checkpointName(found))) ?? 0n;
      if (checkpoint >= position) return;
      if (Date.now() >= deadline) throw new TimeoutError(`read model ${projection} did not catch up within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, this.intervalMs));
    }
  }
}
