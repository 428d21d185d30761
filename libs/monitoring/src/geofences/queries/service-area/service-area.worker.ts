import { serveTask } from '../../../../../platform/src/threads/work-task.js';
import { cellsOutcome, type CellsOutcome, type CellsRequest } from './service-area.cells.js';

/**
 * Service-area thread module (service-area.thread.ts): one area's whole answer
 * per task, off the api's event loop, its bytes handed over rather than
 * copied. It loads the task wrapper and addressing's thread surface alone,
 * not the platform's index (ADR 0042, 0044).
 */
export default serveTask<CellsRequest, CellsOutcome>((request) => {
  const output = cellsOutcome(request);
  return { output, transfer: 'body' in output ? [output.body.buffer as ArrayBuffer] : [] };
});
