import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileDatasetStore } from '../../../platform/src/index.js';
import { appRoot } from '../../../starter/src/index.js';
import { NO_ACCESS } from '../engine/road-graph.js';
import { importRoads } from '../public/import-roads.js';
import { RoadNetwork } from '../public/road-network.js';
import type { LatLng } from '../routing-engine.port.js';
import { random } from './synthetic-roads.js';

/** The starter's Accra roads, imported and prepared in a temporary folder (tests and the benchmark). */
export async function accraNetwork(): Promise<{ network: RoadNetwork; store: FileDatasetStore; roadsFile: string }> {
  const roadsFile = path.join(appRoot(import.meta.dirname), 'starter/ghana/roads/roads.osm.gz');
  const store = new FileDatasetStore(path.join(mkdtempSync(path.join(tmpdir(), 'accra-roads-')), 'reference'));
  await importRoads(store, roadsFile);
  const network = new RoadNetwork(store, path.join(path.dirname(store.root), 'graphs'), { info: () => undefined, error: () => undefined }, 0);
  await network.start();
  return { network, store, roadsFile };
}

/**
 * Seeded pairs of points on the Accra roads (junctions of two-way major roads
 * in the main network, where every engine snaps them the same way), at least
 * `minM` apart.
 */
export function accraPairs(network: RoadNetwork, count: number, seed: number, minM = 1500): Array<[LatLng, LatLng]> {
  const graph = network.current()!.graph;
  const weights = graph.weightsOf('driving');
  const points: LatLng[] = [];
  for (let e = 0; e < graph.edgeCount; e++) {
    if (weights[2 * e] === NO_ACCESS || weights[2 * e + 1] === NO_ACCESS) continue;
    if (!/^(primary|secondary|tertiary|trunk)$/.test(graph.ways[graph.edgeWay[e]].highway)) continue;
    points.push({ lat: graph.nodeLat[graph.edgeFrom[e]], lng: graph.nodeLng[graph.edgeFrom[e]] });
  }
  const next = random(seed);
  const pairs: Array<[LatLng, LatLng]> = [];
  while (pairs.length < count) {
    const a = points[Math.floor(next() * points.length)];
    const b = points[Math.floor(next() * points.length)];
    const d = Math.hypot((a.lat - b.lat) * 111_000, (a.lng - b.lng) * 110_000);
    if (d >= minM) pairs.push([a, b]);
  }
  return pairs;
}
