import type { DatasetVersion } from '../../../platform/src/index.js';
import type { PlanRequest } from '../domain/planner.js';

/**
 * One plan for a planner thread (planner-pool.ts, planner.worker.ts). Plain
 * data, cloned by postMessage; the `Plan` that comes back is objects, arrays,
 * numbers and strings only (no class instance, no typed array), so it arrives
 * as the in-process planner made it (planner.worker.int-spec.ts checks the answers).
 */
export interface PlanTask {
  /** The versions live when the plan was asked: the thread keeps their networks and drops the others. */
  live: DatasetVersion[];
  source: DatasetVersion;
  request: PlanRequest;
}

export function versionKey(source: DatasetVersion): string {
  return `${source.dataset}@${source.version}`;
}
