import { parentPort, workerData } from 'node:worker_threads';
import { buildCchTopology, customise, type TopologyInput } from './customisable.js';

/**
 * Worker thread of the embedded engine's traffic metrics (engine/traffic-metrics.ts):
 * builds the customisable topology once, keeps it, then customises each set
 * of weights it is sent, off the event loop that serves requests.
 */
const started = performance.now();
const topology = buildCchTopology(workerData as TopologyInput);
parentPort!.postMessage({ kind: 'topology', ms: performance.now() - started });
parentPort!.on('message', ({ id, weights }: { id: number; weights: Int32Array }) => {
  const began = performance.now();
  const hierarchy = customise(topology, weights);
  const arrays = [hierarchy.arcEdge, hierarchy.arcDir, hierarchy.arcChildA, hierarchy.arcChildB, hierarchy.upOffset, hierarchy.upHead, hierarchy.upWeight, hierarchy.upArc, hierarchy.downOffset, hierarchy.downHead, hierarchy.downWeight, hierarchy.downArc];
  // The rank array is the topology's own: sent as a copy, the others moved.
  parentPort!.postMessage({ kind: 'customised', id, hierarchy, ms: performance.now() - began }, arrays.map((array) => array.buffer as ArrayBuffer));
});
