import { parentPort, workerData } from 'node:worker_threads';
import type { DatasetVersion } from '../../../platform/src/index.js';
import { prepareDataset } from './prepare-dataset.js';

/** Worker thread entry: graph preparation (seconds to minutes) never runs on the event loop that serves requests. */
const { version, outFile } = workerData as { version: DatasetVersion; outFile: string };
try {
  const stats = await prepareDataset(version, outFile);
  parentPort!.postMessage({ ok: true, stats });
} catch (error) {
  parentPort!.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
}
