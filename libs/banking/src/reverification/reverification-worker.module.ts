import { Module } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CLOCK, CommandPipeline, EVENT_STORE, JOB_QUEUE, JsonLogger, READ_STORE, type Clock, type EventStore, type JobQueue, type ReadStore } from '../../../platform/src/index.js';
import { BankingNotificationsModule } from '../banking.module.js';
import { ReverificationSchedules } from '../public/reverification-schedules.read-model.js';
import { ReverificationLifecycle } from './reverification-lifecycle.js';
import { RecordRunModule } from './record-run.module.js';
import { ReverificationRunner } from './reverification-runner.js';

/**
 * Banking's background work, in the worker role only: the re-verification
 * queue's processor (it ran in the api process before, which serves HTTP
 * only) and the `reverification.completed` notification source. A run
 * dispatches identity's KYC verification (VerifyKycCommand) on the bus, so the worker
 * composes identity's module too (identityContext).
 */
@Module({
  imports: [BankingNotificationsModule, RecordRunModule],
  providers: [
    { provide: ReverificationSchedules, inject: [READ_STORE], useFactory: (readStore: ReadStore) => new ReverificationSchedules(readStore) },
    {
      provide: ReverificationRunner,
      inject: [CommandBus, CommandPipeline, EVENT_STORE, JOB_QUEUE, CLOCK, JsonLogger],
      useFactory: (bus: CommandBus, commands: CommandPipeline, events: EventStore, queue: JobQueue, clock: Clock, logger: JsonLogger) =>
        new ReverificationRunner(bus, commands, events, queue, clock, logger),
    },
    ReverificationLifecycle,
  ],
})
export class BankingWorkerModule {}
