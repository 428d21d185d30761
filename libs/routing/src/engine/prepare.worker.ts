import { parentPort, workerData } from 'node:worker_threads';
import { prepareDataset, type LayerVersion } from './prepare-dataset.js';

/** Worker thread entry: graph preparation (seconds to minutes) never runs on the event loop that serves requests. */
const { layers, outFile, key } = workerData as { layers: LayerVersion[]; outFile: string; key: string };
try {
  const stats = await prepareDataset(layers, outFile, key);
  parentPort!.postMessage({ ok: true, stats });
} catch (error) {
  parentPort!.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
}
