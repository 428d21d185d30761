import { parentPort } from 'node:worker_threads';
import { coverCells, ServiceAreaTooLargeError } from '../../domain/service-area.js';
import type { CellsReply, CellsRequest } from './service-area.thread.js';

/** Worker thread entry (service-area.thread.ts): one service area's H3 cells per message, off the api's event loop. */
parentPort!.on('message', ({ id, rings, resolution, containment, compact }: CellsRequest) => {
  let reply: CellsReply;
  try {
    // One string rather than 10,000: cheaper to copy between threads.
    reply = { id, cells: coverCells(rings, resolution, containment, compact).join(',') };
  } catch (error) {
    reply = error instanceof ServiceAreaTooLargeError ? { id, tooLarge: error.counts } : { id, error: (error as Error).message };
  }
  parentPort!.postMessage(reply);
});
