import { parentPort, workerData } from 'node:worker_threads';
import { buildBasemap, type BasemapSources } from '../public/starter-basemap.js';

/** Worker thread entry: slicing and encoding the basemap (seconds) never runs on the event loop that serves requests. */
const { sources, outFile } = workerData as { sources: BasemapSources; outFile: string };
try {
  const build = await buildBasemap(sources, outFile, (progress) => parentPort!.postMessage({ progress }));
  parentPort!.postMessage({ ok: true, build });
} catch (error) {
  parentPort!.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
}
