import { MODES } from '../domain/profiles.js';
import type { RoadRecord } from '../domain/road-records.js';
import { closeIslands } from './components.js';
import { contract, type ArcList } from './contraction.js';
import type { PreparedGraph } from './graph-file.js';
import { buildRoadGraph, NO_ACCESS, type RoadGraph } from './road-graph.js';
import { SpatialIndex } from './spatial-index.js';
import { Landmarks } from './search.js';

/** ALT landmarks per mode: 8, chosen far apart (farthest selection). */
export const LANDMARK_COUNT = 8;

/** The directed graph of one mode: an arc per open direction of every edge. */
export function arcsOf(graph: RoadGraph, weights: Int32Array): ArcList {
  const from: number[] = [];
  const to: number[] = [];
  const weight: number[] = [];
  const edge: number[] = [];
  const dir: number[] = [];
  for (let e = 0; e < graph.edgeCount; e++) {
    for (let d = 0; d < 2; d++) {
      const w = weights[2 * e + d];
      if (w === NO_ACCESS) continue;
      from.push(graph.tail(e, d));
      to.push(graph.head(e, d));
      weight.push(w);
      edge.push(e);
      dir.push(d);
    }
  }
  return { nodeCount: graph.nodeCount, from: Int32Array.from(from), to: Int32Array.from(to), weight: Int32Array.from(weight), edge: Int32Array.from(edge), dir: Uint8Array.from(dir) };
}

/** Graph and one contraction hierarchy per mode, from a road dataset's records: the heavy part, run in a worker thread. */
export function prepareGraph(records: Iterable<RoadRecord>, datasetVersion: string, onProgress?: (phase: string, done: number, total: number) => void): PreparedGraph {
  const started = Date.now();
  const { graph, stats } = buildRoadGraph(records);
  const islands = Object.fromEntries(MODES.map((mode, m) => [`island_edges_${mode}`, closeIslands(graph, graph.weights[m])]));
  const hierarchies = MODES.map((mode, m) => contract(arcsOf(graph, graph.weights[m]), { onProgress: (done, total) => onProgress?.(`contracting ${mode}`, done, total) }));
  const shortcutCounts = Object.fromEntries(MODES.map((mode, m) => [`arcs_${mode}`, hierarchies[m].arcEdge.length]));
  const landmarks = MODES.map((_, m) => Landmarks.select(graph, graph.weights[m], LANDMARK_COUNT));
  return { graph, hierarchies, index: SpatialIndex.build(graph), landmarks, meta: { dataset_version: datasetVersion, prepared_at: new Date().toISOString(), prepare_ms: Date.now() - started, stats: { ...stats, ...islands, ...shortcutCounts } } };
}
