import type { DatasetDeclaration } from '../../platform/src/index.js';
import { importRoads, ROAD_DATASET } from './public/import-roads.js';
import { prepareRoadGraph, RoadNetwork } from './public/road-network.js';
import { graphsRoot } from './routing.module.js';

/** The road network (docs/adr/0018): one dataset, prepared into a graph per version and loaded by RoadNetwork. */
export const routingDatasets: readonly DatasetDeclaration[] = [
  {
    dataset: ROAD_DATASET,
    import: (store, [file], options) => importRoads(store, file, options),
    cli: {
      command: 'import:roads',
      usage: 'FILE   (.osm XML, .osm.gz or .osm.pbf; the road network for routing, prepared at once)',
      run: async (store, [file], options) => {
        const result = await importRoads(store, file, { dataset: options.dataset, onProgress: options.onProgress });
        // The routing graph of the new version, so the running service swaps it in without preparing it itself.
        const prepared = await prepareRoadGraph(graphsRoot(options.config), result.version, (phase, done, total) => options.onProgress?.({ phase, done, total, records: result.version.manifest.records }));
        return { ...result, stats: { ...result.stats, ...prepared } };
      },
    },
    // The first start leaves the preparation to RoadNetwork, which reloads once the dataset is live.
    starter: { kind: 'roads', servedBy: RoadNetwork },
  },
];
