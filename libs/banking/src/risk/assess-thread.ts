import { serveTask } from '../../../platform/src/threads/work-task.js';
import { runPortfolioRiskJob, type PortfolioRiskJob } from './portfolio-risk.job.js';

/**
 * Portfolio-risk thread module (portfolio-risk.pool.ts, issue 48): assesses
 * one book per task (each loan's cell, zone relation and factors, the
 * concentration, the scores and the ranking) and serialises the answer, so
 * the api's event loop does none of it.
 */
export default serveTask<PortfolioRiskJob, Uint8Array>((job) => runPortfolioRiskJob(job));
