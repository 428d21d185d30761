import { TimeoutError } from '../errors.js';
import type { PositionWaiter } from '../commands/read-models.js';
import type { ReadStore } from '../read-store/read-store.port.js';
import { checkpointName, type Projection } from './projection.js';

/**
 * Read-your-own-write when the projections run in another process (the
 * production api, with the worker elsewhere): polls the checkpoint the
 * worker writes for `projection`.
 */
export function checkpointPollingWaiter(readStore: ReadStore, projection: Projection, intervalMs = 25): PositionWaiter {
  return {
    async waitFor(position: bigint, timeoutMs: number): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const checkpoint = (await readStore.getCheckpoint(checkpointName(projection))) ?? 0n;
        if (checkpoint >= position) return;
        if (Date.now() >= deadline) throw new TimeoutError(`read model ${projection.name} did not catch up within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
      }
    },
  };
}

