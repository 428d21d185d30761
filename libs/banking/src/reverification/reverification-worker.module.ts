import { Injectable, Module, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CLOCK, CommandPipeline, EVENT_STORE, EventRegistry, Followers, JOB_QUEUE, JsonLogger, READ_STORE, type Clock, type EventStore, type JobQueue, type ReadStore } from '../../../platform/src/index.js';
import { CUSTOMER_LOCATIONS, MonitoringModule, type CustomerLocations } from '../../../monitoring/src/index.js';
import { BankingNotificationsModule } from '../banking.module.js';
import { ReverificationSchedules } from '../public/reverification-schedules.read-model.js';
import { ReverificationConsentStops } from './consent-stops.js';
import { ReverificationLifecycle } from './reverification-lifecycle.js';
import { RecordRunModule } from './record-run.module.js';
import { ReverificationRunner } from './reverification-runner.js';
import { ScheduleSealing } from './schedule-sealing.js';

/** Follows revocations and erasures from the worker's start (a follower of the process, for /health and the lag metric). */
@Injectable()
class ConsentStopsLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    private readonly stops: ReverificationConsentStops,
    private readonly followers: Followers,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.followers.add(this.stops.follower);
    await this.stops.follower.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.stops.follower.stop();
  }
}

/**
 * Banking's background work, in the worker role only: the re-verification
 * queue's processor (it ran in the api process before, which serves HTTP
 * only) and the `reverification.completed` notification source. A run
 * dispatches identity's KYC verification (VerifyKycCommand) on the bus, so the worker
 * composes identity's module too (identityContext). A revocation or erasure
 * stops the customer's schedules at once (ReverificationConsentStops).
 */
@Module({
  // Monitoring's port: a run first asks whether the customer's consent still stands (identity's module imports it too).
  imports: [BankingNotificationsModule, RecordRunModule, MonitoringModule],
  providers: [
    { provide: ReverificationSchedules, inject: [READ_STORE, ScheduleSealing], useFactory: (readStore: ReadStore, sealing: ScheduleSealing) => new ReverificationSchedules(readStore, sealing) },
    {
      provide: ReverificationRunner,
      inject: [CommandBus, CommandPipeline, EVENT_STORE, JOB_QUEUE, CLOCK, JsonLogger, CUSTOMER_LOCATIONS],
      useFactory: (bus: CommandBus, commands: CommandPipeline, events: EventStore, queue: JobQueue, clock: Clock, logger: JsonLogger, locations: CustomerLocations) =>
        new ReverificationRunner(bus, commands, events, queue, clock, logger, locations),
    },
    ReverificationLifecycle,
    {
      provide: ReverificationConsentStops,
      inject: [EVENT_STORE, EventRegistry, READ_STORE, CUSTOMER_LOCATIONS, ReverificationSchedules, CommandBus, JsonLogger],
      useFactory: (events: EventStore, registry: EventRegistry, readStore: ReadStore, locations: CustomerLocations, schedules: ReverificationSchedules, bus: CommandBus, logger: JsonLogger) =>
        new ReverificationConsentStops(events, registry, readStore, locations, schedules, bus, logger),
    },
    ConsentStopsLifecycle,
  ],
})
export class BankingWorkerModule {}
