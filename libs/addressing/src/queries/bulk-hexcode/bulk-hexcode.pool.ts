import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { CONFIG, JsonLogger, ThreadPoolBusyError, WorkPool, type Config } from '../../../../platform/src/index.js';
import { runBulkHexcodeJob, type BulkHexcodeJob, type BulkHexcodeOutcome } from './bulk-hexcode.job.js';

/** 503 HEXCODE_BUSY: the bulk threads' queue is full, or a request ran past its time (or its thread failed). */
export class HexcodeBusyError extends ThreadPoolBusyError {
  readonly code = 'HEXCODE_BUSY';
}

/** From the call to the answer, queue included (a 10,000-item bulk takes ~0.1 s of a thread). */
export const BULK_TIMEOUT_MS = 20_000;

/**
 * POST /v2/hexcode/bulk's threads (ADR 0041): HEXCODE_WORKERS threads running
 * the compiled `bulk-hexcode.worker.js`, on the platform's WorkPool (piscina:
 * queue limit, time-out, replacement of a failed thread, metrics
 * `thread_pool_jobs_total{pool="hexcode-bulk"}`). Without threads (0, or the
 * TypeScript sources under jest, which a thread cannot load) the same job
 * runs on the calling thread.
 */
@Injectable()
export class BulkHexcodePool implements OnModuleInit, OnModuleDestroy {
  private readonly pool: WorkPool<BulkHexcodeJob, BulkHexcodeOutcome>;

  constructor(@Inject(CONFIG) config: Config, @Inject(JsonLogger) logger: JsonLogger) {
    this.pool = new WorkPool({
      name: 'hexcode-bulk',
      threads: config.hexcodeWorkers,
      workerUrl: compiledEntry(),
      inProcess: async (job) => (await runBulkHexcodeJob(job)).output,
      busy: (reason, message) => new HexcodeBusyError(message, reason),
      timeoutMs: BULK_TIMEOUT_MS,
      log: { error: (fields) => logger.error(fields, 'addressing') },
    });
  }

  get threaded(): boolean {
    return this.pool.threaded;
  }

  run(job: BulkHexcodeJob): Promise<BulkHexcodeOutcome> {
    return this.pool.run(job);
  }

  /** The threads load their modules while the service starts, not during the first bulk request. */
  onModuleInit(): void {
    this.pool.start();
  }

  onModuleDestroy(): Promise<void> {
    return this.pool.close();
  }
}

/** The compiled entry beside this module; none when running the TypeScript sources. */
function compiledEntry(): URL | null {
  return import.meta.url.endsWith('.ts') ? null : new URL('./bulk-hexcode.worker.js', import.meta.url);
}
