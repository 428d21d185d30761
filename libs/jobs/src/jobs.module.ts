import { Global, Injectable, Module, type DynamicModule, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CLOCK, CONFIG, DATA_KEY_VAULT, EVENT_STORE, EventRegistry, JOB_QUEUE, JsonLogger, SecretBox, type Clock, type Config, type DataKeyVault, type EventStore, type JobQueue } from '../../platform/src/index.js';
import { RecordJobHandler } from './commands/record-job/record-job.handler.js';
import { JobNotifications } from './notifications/job-notifications.js';
import type { JobKind, JobKindBinding } from './public/job-kind.js';
import { JOB_SUBMISSIONS } from './job-submissions.port.js';
import { JobSubmitter } from './public/job-submitter.js';
import { GetJobController } from './queries/get-job/get-job.controller.js';
import { GetJobHandler } from './queries/get-job/get-job.handler.js';
import { JobResults } from './results/job-results.js';
import { JobProcessor } from './worker/job-processor.js';

/** The record-job handler and the result files, for the api and the worker (Nest builds the module once in all-in-one). */
@Module({
  providers: [
    RecordJobHandler,
    // Results sealed under a customer's key (a customer's copy) are opened with the data-key vault (docs/adr/0068).
    { provide: JobResults, inject: [CONFIG, DATA_KEY_VAULT, SecretBox], useFactory: (config: Config, vault: DataKeyVault, box: SecretBox) => new JobResults(config.dataDir, vault, box) },
  ],
  exports: [JobResults],
})
export class JobRecordsModule {}

/** The `job.completed` source, for every process that runs the webhook fan-out. */
@Module({
  providers: [{ provide: JobNotifications, inject: [EVENT_STORE, EventRegistry], useFactory: (events: EventStore, registry: EventRegistry) => new JobNotifications(events, registry) }],
  exports: [JobNotifications],
})
export class JobNotificationsModule {}

/**
 * The api side: GET /v2/jobs/{id} and its result, and the JOB_SUBMISSIONS port other
 * contexts' controllers inject to answer 202 with a job (global, so a
 * context hooks its endpoint into jobs without importing this module).
 */
@Global()
@Module({
  imports: [JobRecordsModule],
  controllers: [GetJobController],
  // Other contexts inject the port (job-submissions.port.ts), never the submitter.
  providers: [GetJobHandler, JobSubmitter, { provide: JOB_SUBMISSIONS, useExisting: JobSubmitter }],
  exports: [JobSubmitter, JOB_SUBMISSIONS],
})
export class JobsModule {}

/** Sweeps results past their retention once an hour. */
const SWEEP_INTERVAL_MS = 3_600_000;

@Injectable()
class JobProcessorLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  private timer?: NodeJS.Timeout;
  constructor(
    private readonly processor: JobProcessor,
    private readonly results: JobResults,
  ) {}

  onApplicationBootstrap(): void {
    this.processor.start();
    this.timer = setInterval(() => void this.results.sweep(new Date()).catch(() => undefined), SWEEP_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.processor.stop();
  }
}

/** The worker side: the jobs queue's processor, running the kinds the composition root bound, and the notification source. */
export function jobsWorkerModule(kinds: readonly JobKindBinding[]): DynamicModule {
  return {
    module: JobsWorkerModule,
    imports: [JobRecordsModule, JobNotificationsModule, ...kinds.map((binding) => binding.module)],
    providers: [
      {
        provide: JobProcessor,
        inject: [CommandBus, JOB_QUEUE, JobResults, CLOCK, JsonLogger, ...kinds.map((binding) => binding.provider)],
        useFactory: (bus: CommandBus, queue: JobQueue, results: JobResults, clock: Clock, logger: JsonLogger, ...bound: JobKind[]) => new JobProcessor(bound, bus, queue, results, clock, logger),
      },
      JobProcessorLifecycle,
    ],
  };
}
export class JobsWorkerModule {}
