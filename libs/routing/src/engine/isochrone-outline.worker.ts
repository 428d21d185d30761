import { parentPort } from 'node:worker_threads';
import { outlineIsochrone } from './isochrone-outline.js';

/** Worker thread entry (isochrone-outliner.ts): one isochrone's outline per message, off the api's event loop. */
parentPort!.on('message', ({ id, samples, count }: { id: number; samples: Float64Array; count: number }) => {
  try {
    parentPort!.postMessage({ id, outline: outlineIsochrone(samples, count) });
  } catch (error) {
    parentPort!.postMessage({ id, error: (error as Error).message });
  }
});
