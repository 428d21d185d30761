import type { OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { ThreadPoolBusyError, WorkPool, type JsonLogger } from '../../../platform/src/index.js';
import { runPortfolioRiskJob, type PortfolioRiskJob } from './portfolio-risk.job.js';

/** 503 PORTFOLIO_BUSY (Retry-After): the portfolio-risk thread's queue is full, or an assessment ran past its time (or its thread failed). */
export class PortfolioBusyError extends ThreadPoolBusyError {
  readonly code = 'PORTFOLIO_BUSY';
}

/** From the call to the answer, queue included (a 10,000-loan book takes ~0.1-0.2 s of the thread). */
export const PORTFOLIO_RISK_TIMEOUT_MS = 20_000;
/** Books waiting while the thread assesses one; one more is refused. */
export const PORTFOLIO_RISK_QUEUE = 16;

/**
 * POST /v2/analytics/portfolio-risk's thread (issue 48, item 1): one thread of
 * the platform's WorkPool (piscina: queue limit, time-out, replacement of a
 * failed thread, metrics `thread_pool_jobs_total{pool="portfolio-risk"}`)
 * running the compiled `assess-thread.js`. The book is read on the calling
 * thread (the read store, the borrowers' keys, the sightings view live
 * there); the assessment and the answer's bytes are made on the thread. Under
 * jest (the TypeScript sources, which a thread cannot load) the job runs in
 * process.
 */
export class PortfolioRiskPool implements OnModuleInit, OnModuleDestroy {
  private readonly pool: WorkPool<PortfolioRiskJob, Uint8Array>;

  constructor(logger?: JsonLogger, workerUrl?: URL | null) {
    this.pool = new WorkPool({
      name: 'portfolio-risk',
      threads: 1,
      workerUrl: workerUrl !== undefined ? workerUrl : import.meta.url.endsWith('.ts') ? null : new URL('./assess-thread.js', import.meta.url),
      inProcess: (job) => runPortfolioRiskJob(job).output,
      busy: (reason, message) => new PortfolioBusyError(message, reason),
      queueLimit: PORTFOLIO_RISK_QUEUE,
      timeoutMs: PORTFOLIO_RISK_TIMEOUT_MS,
      ...(logger ? { log: { error: (fields: Record<string, unknown>) => logger.error(fields, 'banking') } } : {}),
    });
  }

  get threaded(): boolean {
    return this.pool.threaded;
  }

  /** The answer's envelope as bytes. */
  async answer(job: PortfolioRiskJob): Promise<Buffer> {
    const body = await this.pool.run(job);
    // A thread's bytes arrive as a plain Uint8Array.
    return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  }

  /** The thread loads its modules while the service starts, not during the first request. */
  onModuleInit(): void {
    this.pool.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.close();
  }
}
