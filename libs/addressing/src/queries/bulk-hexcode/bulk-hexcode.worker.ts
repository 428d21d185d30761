import { serveThread } from '../../../../platform/src/index.js';
import { runBulkHexcodeJob, type BulkHexcodeJob, type BulkHexcodeOutcome } from './bulk-hexcode.job.js';

/**
 * Bulk hex-coding thread entry (bulk-hexcode.pool.ts, ADR 0041): parses,
 * validates, codes and serialises one request at a time, so the api's event
 * loop does none of it. It needs no data of the main thread: naming the
 * points (the places index) is left to the main thread, in the answer's gaps.
 */
serveThread<BulkHexcodeJob, BulkHexcodeOutcome>((job) => runBulkHexcodeJob(job));
