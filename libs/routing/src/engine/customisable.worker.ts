import { parentPort, workerData } from 'node:worker_threads';
import { buildCchTopology, contractMetric, contractsInFull, customise, type TopologyInput } from './customisable.js';

/**
 * Worker thread of the embedded engine's traffic metrics (engine/traffic-metrics.ts):
 * on a small network, contracts each set of weights it is sent in full; on a
 * larger one, builds the customisable topology once, keeps it, then
 * customises each set of weights; either way off the event loop that serves
 * requests.
 */
const input = workerData as TopologyInput;
const started = performance.now();
const topology = contractsInFull(input.nodeCount) ? null : buildCchTopology(input);
parentPort!.postMessage({ kind: 'topology', ms: performance.now() - started });
parentPort!.on('message', ({ id, weights }: { id: number; weights: Int32Array }) => {
  const began = performance.now();
  const hierarchy = topology ? customise(topology, weights) : contractMetric(input, weights);
  const arrays = [hierarchy.arcEdge, hierarchy.arcDir, hierarchy.arcChildA, hierarchy.arcChildB, hierarchy.upOffset, hierarchy.upHead, hierarchy.upWeight, hierarchy.upArc, hierarchy.downOffset, hierarchy.downHead, hierarchy.downWeight, hierarchy.downArc];
  // The CCH rank array is the topology's own: sent as a copy, the others moved (a full contraction's too).
  if (!topology) arrays.push(hierarchy.rank);
  parentPort!.postMessage({ kind: 'customised', id, hierarchy, ms: performance.now() - began }, arrays.map((array) => array.buffer as ArrayBuffer));
});
