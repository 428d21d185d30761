import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CLOCK, JOB_QUEUE, JsonLogger, type Clock, type JobQueue, type Worker } from '../../../platform/src/index.js';
import { ReverificationSchedules } from '../public/reverification-schedules.read-model.js';
import { enqueueRun, REVERIFICATION_QUEUE, type ReverificationJob } from './reverification-jobs.js';
import { ReverificationRunner } from './reverification-runner.js';

/** Runs in flight at once per process: each is a verification reading up to 5,000 pings. */
const CONCURRENCY = 2;

/**
 * Processes the re-verification queue in the worker role (BankingWorkerModule,
 * beside identity's module, whose verification it runs), and at start puts the
 * next run of every active schedule back on the queue: the job ids make that
 * a no-op for runs already queued, and it heals a schedule whose enqueue was
 * lost between its record and the queue (a crash in between).
 */
@Injectable()
export class ReverificationLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  private worker?: Worker;

  constructor(
    private readonly runner: ReverificationRunner,
    private readonly schedules: ReverificationSchedules,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly logger: JsonLogger,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.worker = this.queue.process<ReverificationJob>(REVERIFICATION_QUEUE, (job) => this.runner.handle(job), { concurrency: CONCURRENCY });
    // Not awaited: start-up does not wait for a long list; a failure is logged and the next start tries again.
    void this.reconcile().catch((error: unknown) => this.logger.warn({ msg: 're-verification schedules could not be reconciled with the queue', err: error instanceof Error ? error.message : String(error) }));
  }

  async onModuleDestroy(): Promise<void> {
    await this.worker?.close();
  }

  private async reconcile(): Promise<void> {
    for await (const page of this.schedules.active()) {
      for (const doc of page) await enqueueRun(this.queue, { account_id: doc.account_id, schedule_id: doc.id, run: doc.runs + 1 }, doc.next_due_at, this.clock.now());
    }
  }
}
