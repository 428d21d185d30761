import { parentPort, workerData } from 'node:worker_threads';
import { buildCchTopology, type TopologyInput } from './customisable.js';

/** Worker thread entry: the customisable topology (a nested-dissection order and its fill-in) is built off the event loop. */
const topology = buildCchTopology(workerData as TopologyInput);
const arrays = [topology.rank, topology.offset, topology.head, topology.triangles, topology.roadEdge, topology.roadFromIsLower];
parentPort!.postMessage(topology, arrays.map((array) => array.buffer as ArrayBuffer));
