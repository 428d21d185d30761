import { workerData } from 'node:worker_threads';
import { FileDatasetStore } from '../../../platform/src/index.js';
import { serveTask } from '../../../platform/src/threads/work-task.js';
import { planTrip, type Plan } from '../domain/planner.js';
import { compileNetwork } from '../feed/compile-network.js';
import { versionKey, type PlanTask } from './planner-messages.js';
import { PlannerNetworks } from './planner-networks.js';

/**
 * Planner thread module (planner-pool.ts, a WorkPool): its own compiled
 * network of each live feed version, read from the reference store as the
 * main thread reads it, and one search per task, so the api's event loop
 * never runs RAPTOR. Each task names the versions live when it was asked:
 * the thread drops the others and compiles what it lacks.
 */
const store = new FileDatasetStore((workerData as { root: string }).root);
const networks = new PlannerNetworks((source) => compileNetwork(store, source));
let live = '';

export default serveTask<PlanTask, Plan>(async ({ live: sources, source, request }) => {
  const named = sources.map(versionKey).join(',');
  if (named !== live) {
    live = named;
    networks.keep(sources);
  }
  return { output: planTrip(await networks.network(source), request) };
});
