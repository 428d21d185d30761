import type { WorkAnswer } from '../../../platform/src/threads/work-task.js';
import { PortfolioAssessor, type BookLoan, type BorrowerObservation } from '../public/assess-portfolio.js';

/**
 * One portfolio-risk request's assessment as plain data (issue 48, item 1):
 * the book as it was read, page by page (its loans, what is known of each
 * borrower, the alert coverage of each anchor or null), so that a pool
 * thread (assess-thread.ts) scores, ranks and serialises it exactly as the
 * handler would have page by page on the calling thread.
 */
export interface PortfolioRiskJob {
  nowMs: number;
  notSeenDays: number;
  concentrationMinLoans: number;
  limit: number;
  pages: { loans: BookLoan[]; observations: BorrowerObservation[]; covered: boolean[] | null }[];
  notFound: string[];
}

/** The answer's data (as_of, the assessment, not_found). */
export function assessPortfolioJob(job: PortfolioRiskJob) {
  const now = new Date(job.nowMs);
  const assessor = new PortfolioAssessor({ now, notSeenDays: job.notSeenDays, concentrationMinLoans: job.concentrationMinLoans, limit: job.limit });
  for (const page of job.pages) assessor.add(page.loans, page.observations, page.covered);
  return { as_of: now.toISOString(), ...assessor.finish(), not_found: job.notFound };
}

/**
 * The whole envelope `{"success":true,"data":…}` as UTF-8 bytes, in an
 * ArrayBuffer of its own (moved, not copied, from a thread).
 */
export function runPortfolioRiskJob(job: PortfolioRiskJob): WorkAnswer<Uint8Array> {
  const body = new TextEncoder().encode(JSON.stringify({ success: true, data: assessPortfolioJob(job) }));
  return { output: body, transfer: [body.buffer as ArrayBuffer] };
}
