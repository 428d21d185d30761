import { serveTask } from '../../../../platform/src/threads/work-task.js';
import { runBulkHexcodeJob, type BulkHexcodeJob, type BulkHexcodeOutcome } from './bulk-hexcode.job.js';

/**
 * Bulk hex-coding thread module (bulk-hexcode.pool.ts, ADR 0041): parses,
 * validates, codes and serialises one request per task, so the api's event
 * loop does none of it. It needs no data of the main thread: naming the
 * points (the places index) is left to the main thread, in the answer's gaps.
 */
export default serveTask<BulkHexcodeJob, BulkHexcodeOutcome>((job) => runBulkHexcodeJob(job));
