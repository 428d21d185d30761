import type { WorkAnswer } from '../../../platform/src/threads/work-task.js';
import { PortfolioAssessor, type BookLoan, type BorrowerObservation } from '../public/assess-portfolio.js';

/** One page of the book as read: its loans, what is known of each borrower, the alert coverage of each anchor or null. */
export interface BookPage {
  loans: BookLoan[];
  observations: BorrowerObservation[];
  covered: boolean[] | null;
}

/**
 * One portfolio-risk request's assessment as plain data (issue 48, item 1):
 * the book as it was read, page by page, so that a pool thread
 * (assess-thread.ts) scores, ranks and serialises it exactly as the handler
 * would have page by page on the calling thread.
 *
 * Each page is JSON text (`pageText`), written when the page is read: the
 * job then crosses to the thread as a few hundred strings, one copy of their
 * bytes, where the structured clone of 10,000 loans' objects held the loop
 * ~11 ms per book in one piece (docs/adr/0067). The thread parses them.
 */
export interface PortfolioRiskJob {
  nowMs: number;
  notSeenDays: number;
  concentrationMinLoans: number;
  limit: number;
  pages: string[];
  notFound: string[];
}

/** A page as the job carries it. */
export function pageText(page: BookPage): string {
  return JSON.stringify(page);
}

/** The answer's data (as_of, the assessment, not_found). */
export function assessPortfolioJob(job: PortfolioRiskJob) {
  const now = new Date(job.nowMs);
  const assessor = new PortfolioAssessor({ now, notSeenDays: job.notSeenDays, concentrationMinLoans: job.concentrationMinLoans, limit: job.limit });
  for (const text of job.pages) {
    const page = JSON.parse(text) as BookPage;
    assessor.add(page.loans, page.observations, page.covered);
  }
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
