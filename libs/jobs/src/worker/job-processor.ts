import { CommandBus } from '@nestjs/cqrs';
import { DomainError, type Clock, type Job, type JobQueue, type JsonLogger, type Worker } from '../../../platform/src/index.js';
import { RecordJobCommand } from '../commands/record-job/record-job.handler.js';
import type { JobKind } from '../public/job-kind.js';
import { JOB_ATTEMPTS, JOBS_QUEUE, type QueuedJob } from '../public/job-submitter.js';
import { JOB_RESULT_RETENTION_MS, type JobResults } from '../results/job-results.js';

/** Jobs one worker process runs at once (each is I/O and CPU of its own kind: a bulk codes, an export reads the log). */
export const JOB_CONCURRENCY = 2;

/**
 * The worker side: takes jobs off the queue (BullMQ spreads them over every
 * worker process; the embedded queue runs them in the one), records
 * JobStarted, runs the kind, writes the result under DATA_DIR and records
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
    let result: Buffer | Record<string, unknown>;
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
    const envelope = Buffer.isBuffer(result) ? result : Buffer.from(JSON.stringify({ success: true, data: result }));
    const bytes = await this.results.write(account_id, job_id, envelope);
    const expires = new Date(this.clock.now().getTime() + JOB_RESULT_RETENTION_MS).toISOString();
    await this.bus.execute(new RecordJobCommand({ type: 'Succeed', ...ids, result_bytes: bytes, expires_at: expires }));
  }
}
