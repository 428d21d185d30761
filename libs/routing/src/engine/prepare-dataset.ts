import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { FileDatasetStore, type DatasetVersion } from '../../../platform/src/index.js';
import type { RoadRecord } from '../domain/road-records.js';
import { writeGraphFile } from './graph-file.js';
import { combineLayers } from './layers.js';
import { prepareGraph } from './prepare.js';

/** One dataset of a layered road network (docs/adr/0035), in the network's layer order. */
export interface LayerVersion {
  version: DatasetVersion;
  role: 'detailed' | 'backbone';
}

/** Reads the road datasets' versions (checksums verified), combines the layers and writes the prepared graph to `outFile`. */
export async function prepareDataset(layers: readonly LayerVersion[], outFile: string, key: string, onProgress?: (phase: string, done: number, total: number) => void): Promise<Record<string, number>> {
  const inputs = [];
  for (const layer of layers) {
    // Run in a worker thread, which has no container: the file adapter reads each version where it lies.
    const store = new FileDatasetStore(referenceRoot(layer.version));
    const records: RoadRecord[] = [];
    for await (const record of store.records<RoadRecord>(layer.version)) records.push(record);
    inputs.push({ role: layer.role, records });
  }
  const combined = combineLayers(inputs);
  const prepared = prepareGraph(combined.records, key, onProgress);
  prepared.meta.stats = { ...prepared.meta.stats, ...(layers.length > 1 ? (combined.stats as unknown as Record<string, number>) : {}) };
  await mkdir(path.dirname(outFile), { recursive: true });
  try {
    await writeGraphFile(outFile, prepared);
  } catch (error) {
    await rm(outFile, { force: true });
    throw error;
  }
  return { ...prepared.meta.stats, prepare_ms: prepared.meta.prepare_ms };
}

/** `DATA_DIR/reference` from a version's folder (`<root>/<dataset…>/<version>`; a dataset of a group is one level deeper). */
function referenceRoot(version: DatasetVersion): string {
  let dir = version.directory;
  for (let depth = version.dataset.split('/').length + 1; depth > 0; depth--) dir = path.dirname(dir);
  return dir;
}
