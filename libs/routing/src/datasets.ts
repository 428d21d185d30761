import type { DatasetCliOptions, DatasetDeclaration, DatasetImportResult, DatasetStore } from '../../platform/src/index.js';
import { BACKBONE_DATASET, EXTRACT_GROUP, importRoadExtract, importRoads, ROAD_DATASET } from './public/import-roads.js';
import { prepareRoadGraph, RoadNetwork } from './public/road-network.js';
import { graphsRoot } from './routing.module.js';

/** The import, then the routing graph of the new combination of layers, so the running service swaps it in without preparing it itself. */
function importThenPrepare(importer: (store: DatasetStore, file: string, options: DatasetCliOptions) => Promise<DatasetImportResult>) {
  return async (store: DatasetStore, [file]: string[], options: DatasetCliOptions) => {
    const result = await importer(store, file, options);
    const prepared = await prepareRoadGraph(graphsRoot(options.config), store, (phase, done, total) => options.onProgress?.({ phase, done, total, records: result.version.manifest.records }));
    return { ...result, stats: { ...result.stats, ...prepared } };
  };
}

/**
 * The road network (docs/adr/0018, 0035): layered datasets combined into one
 * graph — the detailed `roads` (a city's OSM streets), the operator's detailed
 * `road-extracts/*`, and the national `roads-backbone` — prepared per
 * combination of versions and loaded by RoadNetwork.
 */
export const routingDatasets: readonly DatasetDeclaration[] = [
  {
    dataset: ROAD_DATASET,
    import: (store, [file], options) => importRoads(store, file, options),
    cli: {
      command: 'import:roads',
      usage: 'FILE   (.osm XML, .osm.gz or .osm.pbf; the detailed road network for routing, prepared at once)',
      run: importThenPrepare((store, file, options) => importRoads(store, file, { dataset: options.dataset, onProgress: options.onProgress })),
    },
    // The first start leaves the preparation to RoadNetwork, which reloads once the dataset is live.
    starter: { kind: 'roads', servedBy: RoadNetwork },
  },
  {
    dataset: BACKBONE_DATASET,
    import: (store, [file], options) => importRoads(store, file, options, BACKBONE_DATASET),
    cli: {
      command: 'import:roads-backbone',
      usage: 'FILE   (.osm XML, .osm.gz or .osm.pbf; the national road backbone, clipped where a detailed network has coverage)',
      run: importThenPrepare((store, file, options) => importRoads(store, file, { dataset: options.dataset, onProgress: options.onProgress }, BACKBONE_DATASET)),
    },
    starter: { kind: 'roads-backbone', servedBy: RoadNetwork },
  },
  {
    dataset: `${EXTRACT_GROUP}/*`,
    import: (store, [file], options) => importRoadExtract(store, file, options),
    cli: {
      command: 'import:road-extract',
      usage: `FILE [--dataset ${EXTRACT_GROUP}/NAME]   (a detailed extract beside roads; it wins over the backbone where it has roads)`,
      run: importThenPrepare((store, file, options) => importRoadExtract(store, file, { dataset: options.dataset, onProgress: options.onProgress })),
    },
  },
];
