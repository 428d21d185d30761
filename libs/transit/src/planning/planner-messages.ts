import type { DatasetVersion } from '../../../platform/src/index.js';
import type { Plan, PlanRequest } from '../domain/planner.js';

/**
 * What the planner threads and the main thread say to each other
 * (planner-pool.ts, planner.worker.ts). Everything is plain data, cloned by
 * postMessage: a `Plan` is objects, arrays, numbers and strings only (no
 * class instance, no typed array), so it arrives as the in-process planner
 * made it (planner-pool.spec.ts checks the clone, planner-threads.int-spec.ts
 * the answers).
 */
export type ToPlanner =
  /** The versions live now: compile the missing ones, drop the others. */
  | { kind: 'keep'; sources: DatasetVersion[] }
  | { kind: 'plan'; id: number; source: DatasetVersion; request: PlanRequest };

export type FromPlanner =
  /** The thread's modules are loaded: it can plan. `niceness`: the priority it runs at (getPriority, Linux per thread). */
  | { kind: 'ready'; niceness: number }
  /** The network is compiled and the search begins (a time-out from here means a search that runs away). */
  | { kind: 'started'; id: number }
  | { kind: 'planned'; id: number; plan: Plan }
  | { kind: 'failed'; id: number; error: string };

export function versionKey(source: DatasetVersion): string {
  return `${source.dataset}@${source.version}`;
}
