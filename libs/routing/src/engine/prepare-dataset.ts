import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { FileDatasetStore, type DatasetVersion } from '../../../platform/src/index.js';
import type { RoadRecord } from '../domain/road-records.js';
import { writeGraphFile } from './graph-file.js';
import { prepareGraph } from './prepare.js';

/** Reads a road dataset version (checksum verified) and writes its prepared graph to `outFile`. */
export async function prepareDataset(version: DatasetVersion, outFile: string, onProgress?: (phase: string, done: number, total: number) => void): Promise<Record<string, number>> {
  // Run in a worker thread, which has no container: the file adapter reads the version where it lies.
  const store = new FileDatasetStore(path.dirname(path.dirname(version.directory)));
  const records: RoadRecord[] = [];
  for await (const record of store.records<RoadRecord>(version)) records.push(record);
  const prepared = prepareGraph(records, version.version, onProgress);
  await mkdir(path.dirname(outFile), { recursive: true });
  try {
    await writeGraphFile(outFile, prepared);
  } catch (error) {
    await rm(outFile, { force: true });
    throw error;
  }
  return { ...prepared.meta.stats, prepare_ms: prepared.meta.prepare_ms };
}
