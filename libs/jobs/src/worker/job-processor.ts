import { CommandBus } from '@nestjs/cqrs';
import { DomainError, type Clock, type Job, type JobQueue, type JsonLogger, type Worker } from '../../../platform/src/index.js';
import { RecordJobCommand } from '../commands/record-job/record-job.handler.js';
import { isSealedJobResult, JOB_RESULT_ERASED, type SealedJobResult } from '../domain/job.js';
import type { JobKind } from '../public/job-kind.js';
import { JOB_ATTEMPTS, JOBS_QUEUE, type QueuedJob } from '../public/job-submitter.js';
import { JOB_RESULT_RETENTION_MS, type JobResults } from '../results/job-results.js';

/** Jobs one worker process runs at once (each is I/O and CPU of its own kind: a bulk codes, an export reads the log). */
export const JOB_CONCURRENCY = 2;

/**
 * The worker side: takes jobs off the queue (BullMQ spreads them over every
 * worker process; the embedded queue runs them in the one), records
 * JobStarted, runs the kind, writes the result under DATA_DIR (sealed under
 * the customer's key when the kind answers a sealedJobResult) and records
 * JobSucceeded, or JobFailed with the error. A job whose stream already
 * finished (a second delivery of the same job) records nothing again.
 */
export class JobProcessor {
  private worker?: Worker;
  private readonly kinds: ReadonlyMap<string, JobKind>;

  constructor(
    kinds: readonly JobKind[],
    private readonly bus: CommandBus,
    private readonly queue: JobQueue,
    private readonly results: JobResults,
    private readonly clock: Clock,
    private readonly logger: JsonLogger,
  ) {
    this.kinds = new Map(kinds.map((kind) => [kind.kind, kind]));
  }

  start(): void {
    this.worker = this.queue.process<QueuedJob>(JOBS_QUEUE, (job) => this.run(job), { concurrency: JOB_CONCURRENCY });
  }

  async stop(): Promise<void> {
    await this.worker?.close();
  }

  async run(job: Job<QueuedJob>): Promise<void> {
    const { account_id, job_id, kind: name, input } = job.data;
    const ids = { account_id, job_id };
    const started = await this.bus.execute(new RecordJobCommand({ type: 'Start', ...ids, attempt: job.attemptsMade + 1 }));
    if (started.events.length === 0) return; // finished already
    const kind = this.kinds.get(name);
    if (!kind) {
      await this.bus.execute(new RecordJobCommand({ type: 'Fail', ...ids, error: { code: 'JOB_FAILED', message: `no worker runs jobs of kind ${name}` } }));
      return;
    }
    let result: Buffer | Record<string, unknown> | SealedJobResult;
    try {
      result = await kind.run(input, {
        accountId: account_id,
        jobId: job_id,
        progress: async (done, total) => {
          await this.bus.execute(new RecordJobCommand({ type: 'Progress', ...ids, done, total }));
        },
      });
    } catch (error) {
      const last = job.attemptsMade + 1 >= JOB_ATTEMPTS;
      if (error instanceof DomainError) {
        await this.bus.execute(new RecordJobCommand({ type: 'Fail', ...ids, error: { code: error.code, message: error.message } }));
        return;
      }
      this.logger.warn(`job ${job_id} (${name}) attempt ${job.attemptsMade + 1} failed: ${error instanceof Error ? error.message : String(error)}`, 'JobProcessor');
      if (!last) throw error;
      await this.bus.execute(new RecordJobCommand({ type: 'Fail', ...ids, error: { code: 'JOB_FAILED', message: 'the job could not be completed; submit it again' } }));
      return;
    }
    let bytes: number | undefined;
    if (isSealedJobResult(result)) {
      // Sealed under the customer's key the request was accepted under (docs/adr/0068); gone: the customer was erased meanwhile.
      bytes = await this.results.writeSealed(account_id, job_id, Buffer.from(JSON.stringify({ success: true, data: result.data })), result.subject, result.keyId);
      if (bytes === undefined) {
        await this.bus.execute(new RecordJobCommand({ type: 'Fail', ...ids, error: { code: JOB_RESULT_ERASED, message: "the customer's data was erased before the result was made" } }));
        return;
      }
    } else {
      bytes = await this.results.write(account_id, job_id, Buffer.isBuffer(result) ? result : Buffer.from(JSON.stringify({ success: true, data: result })));
    }
    const expires = new Date(this.clock.now().getTime() + JOB_RESULT_RETENTION_MS).toISOString();
    await this.bus.execute(new RecordJobCommand({ type: 'Succeed', ...ids, result_bytes: bytes, expires_at: expires }));
  }
}
