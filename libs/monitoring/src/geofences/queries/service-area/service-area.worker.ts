import { serveThread } from '../../../../../platform/src/threads/thread-entry.js';
import { cellsOutcome, type CellsOutcome, type CellsRequest } from './service-area.cells.js';

/**
 * Service-area thread entry (service-area.thread.ts): one area's H3 cells per
 * job, off the api's event loop. It loads the thread entry alone, not the
 * platform's index (ADR 0042).
 */
serveThread<CellsRequest, CellsOutcome>((request) => ({ output: cellsOutcome(request) }));
