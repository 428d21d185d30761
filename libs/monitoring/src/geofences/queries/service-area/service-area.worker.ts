import { serveThread } from '../../../../../platform/src/threads/thread-entry.js';
import { cellsOutcome, type CellsOutcome, type CellsRequest } from './service-area.cells.js';

/**
 * Service-area thread entry (service-area.thread.ts): one area's whole answer
 * per job, off the api's event loop, its bytes handed over rather than
 * copied. It loads the thread entry and addressing's thread surface alone,
 * not the platform's index (ADR 0042, 0044).
 */
serveThread<CellsRequest, CellsOutcome>((request) => {
  const output = cellsOutcome(request);
  return { output, transfer: 'body' in output ? [output.body.buffer as ArrayBuffer] : [] };
});
