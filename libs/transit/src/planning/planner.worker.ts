import { getPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { FileDatasetStore, lowerPriority } from '../../../platform/src/index.js';
import { planTrip } from '../domain/planner.js';
import { compileNetwork } from '../feed/compile-network.js';
import type { FromPlanner, ToPlanner } from './planner-messages.js';
import { PlannerNetworks } from './planner-networks.js';

/**
 * Planner thread entry (planner-pool.ts): its own compiled network of each
 * live feed version, read from the reference store as the main thread reads
 * it, and one search at a time, so the api's event loop never runs RAPTOR.
 */
const port = parentPort!;
const setup = workerData as { root: string; niceness?: number };
// Below the main thread, as the platform's pool threads (docs/adr/0043, 0044): a search yields the CPU to the loop.
lowerPriority(setup.niceness ?? 0);
const store = new FileDatasetStore(setup.root);
const networks = new PlannerNetworks((source) => compileNetwork(store, source));
const send = (message: FromPlanner) => port.postMessage(message);

port.on('message', (message: ToPlanner) => {
  if (message.kind === 'keep') {
    networks.keep(message.sources);
    return;
  }
  const { id, source, request } = message;
  const failed = (error: unknown) => send({ kind: 'failed', id, error: error instanceof Error ? error.message : String(error) });
  networks.network(source).then((network) => {
    send({ kind: 'started', id });
    try {
      send({ kind: 'planned', id, plan: planTrip(network, request) });
    } catch (error) {
      failed(error);
    }
  }, failed);
});
send({ kind: 'ready', niceness: getPriority() });
