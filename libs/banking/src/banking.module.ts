import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { CUSTOMER_LOCATIONS, CUSTOMER_PSEUDONYMS, MonitoringModule, type CustomerLocations, type CustomerPseudonymPort } from '../../monitoring/src/index.js';
import { PlacesModule } from '../../places/src/index.js';
import {
  CommandPipeline,
  DATA_KEY_VAULT,
  EVENT_STORE,
  EventRegistry,
  Followers,
  JsonLogger,
  READ_STORE,
  ReadModels,
  registerView,
  type DataKeyVault,
  type EventStore,
  type ReadStore,
} from '../../platform/src/index.js';
import { BulkRegisterLoansController } from './commands/bulk-register-loans/bulk-register-loans.controller.js';
import { BulkRegisterLoansHandler, RegisterLoanInBulkHandler } from './commands/bulk-register-loans/bulk-register-loans.handler.js';
import { CancelScheduleController } from './commands/cancel-schedule/cancel-schedule.controller.js';
import { CancelScheduleHandler } from './commands/cancel-schedule/cancel-schedule.handler.js';
import { RegisterLoanController } from './commands/register-loan/register-loan.controller.js';
import { RegisterLoanHandler } from './commands/register-loan/register-loan.handler.js';
import { ScheduleReverificationController } from './commands/schedule-reverification/schedule-reverification.controller.js';
import { RecordReverificationScheduleHandler } from './commands/schedule-reverification/schedule-reverification.handler.js';
import { ScheduleReverificationProcess } from './commands/schedule-reverification/schedule-reverification.process.js';
import { LoanSealing } from './loans/loan-sealing.js';
import { BankingNotifications } from './notifications/banking-notifications.js';
import { BorrowerSightings } from './public/borrower-sightings.view.js';
import { CollectionsConsents } from './public/collections-consents.view.js';
import { GetScheduleController } from './queries/get-schedule/get-schedule.controller.js';
import { GetScheduleHandler } from './queries/get-schedule/get-schedule.handler.js';
import { ListSchedulesController } from './queries/list-schedules/list-schedules.controller.js';
import { ListSchedulesHandler } from './queries/list-schedules/list-schedules.handler.js';
import { LocateBorrowerController } from './queries/locate-borrower/locate-borrower.controller.js';
import { LocateBorrowerHandler } from './queries/locate-borrower/locate-borrower.handler.js';
import { PortfolioRiskController } from './queries/portfolio-risk/portfolio-risk.controller.js';
import { PortfolioRiskHandler } from './queries/portfolio-risk/portfolio-risk.handler.js';
import { RetailDensityController } from './queries/retail-density/retail-density.controller.js';
import { RecordRunModule } from './reverification/record-run.module.js';
import { ScheduleSealing } from './reverification/schedule-sealing.js';
import { RetailDensityHandler } from './queries/retail-density/retail-density.handler.js';
import { CollectionLoans } from './public/collection-loans.read-model.js';
import { ReverificationSchedules } from './public/reverification-schedules.read-model.js';
import { ALERT_AREAS, noAlertAreas } from './risk/alert-areas.port.js';
import { PortfolioRiskPool } from './risk/portfolio-risk.pool.js';

/** The `reverification.completed` source, for every process that runs the webhook fan-out (the worker's too). */
@Module({
  providers: [{ provide: BankingNotifications, inject: [EVENT_STORE, EventRegistry], useFactory: (events: EventStore, registry: EventRegistry) => new BankingNotifications(events, registry) }],
  exports: [BankingNotifications],
})
export class BankingNotificationsModule {}

/**
 * Banking features for lenders (interface.md, "Banking features"): collection
 * zones and locating borrowers, portfolio risk, re-verification schedules.
 * Every endpoint is `@BankingOnly()`; the access audit records each call
 * (GET /v2/banking/audit-log, libs/audit). docs/adr/0022.
 *
 * Weather alerts reach portfolio risk through the ALERT_AREAS port; without
 * `withAlertAreas` it reports the factor as unavailable.
 */
@Module({
  imports: [MonitoringModule, PlacesModule, BankingNotificationsModule, RecordRunModule],
  controllers: [
    RegisterLoanController,
    BulkRegisterLoansController,
    LocateBorrowerController,
    PortfolioRiskController,
    ScheduleReverificationController,
    ListSchedulesController,
    GetScheduleController,
    CancelScheduleController,
    RetailDensityController,
  ],
  providers: [
    // Loan registrations are sealed under the borrower's data key (docs/adr/0055); banking's own key seals the borrower ids of the read model.
    {
      provide: LoanSealing,
      inject: [DATA_KEY_VAULT, CUSTOMER_PSEUDONYMS],
      useFactory: (vault: DataKeyVault, pseudonyms: CustomerPseudonymPort) => LoanSealing.open(vault, pseudonyms),
    },
    { provide: CollectionLoans, inject: [READ_STORE, LoanSealing], useFactory: (readStore: ReadStore, sealing: LoanSealing) => new CollectionLoans(readStore, sealing) },
    { provide: ReverificationSchedules, inject: [READ_STORE, ScheduleSealing], useFactory: (readStore: ReadStore, sealing: ScheduleSealing) => new ReverificationSchedules(readStore, sealing) },
    {
      provide: CollectionsConsents,
      inject: [EVENT_STORE, EventRegistry, CUSTOMER_LOCATIONS, ReadModels, Followers, JsonLogger],
      useFactory: (events: EventStore, registry: EventRegistry, locations: CustomerLocations, readModels: ReadModels, followers: Followers, logger: JsonLogger) =>
        registerView(new CollectionsConsents(events, registry, locations, logger), CollectionsConsents.readModel, readModels, followers),
    },
    {
      provide: BorrowerSightings,
      inject: [EVENT_STORE, EventRegistry, READ_STORE, CUSTOMER_LOCATIONS, LoanSealing, ReadModels, Followers, JsonLogger],
      useFactory: (
        events: EventStore,
        registry: EventRegistry,
        readStore: ReadStore,
        locations: CustomerLocations,
        sealing: LoanSealing,
        readModels: ReadModels,
        followers: Followers,
        logger: JsonLogger,
      ) => registerView(new BorrowerSightings(events, registry, readStore, locations, sealing, logger), BorrowerSightings.readModel, readModels, followers),
    },
    { provide: ALERT_AREAS, useValue: noAlertAreas },
    // Portfolio risk's assessment and answer on a thread (issue 48).
    { provide: PortfolioRiskPool, inject: [JsonLogger], useFactory: (logger: JsonLogger) => new PortfolioRiskPool(logger) },
    RegisterLoanHandler,
    RegisterLoanInBulkHandler,
    BulkRegisterLoansHandler,
    RecordReverificationScheduleHandler,
    ScheduleReverificationProcess,
    CancelScheduleHandler,
    LocateBorrowerHandler,
    PortfolioRiskHandler,
    GetScheduleHandler,
    ListSchedulesHandler,
    RetailDensityHandler,
  ],
})
export class BankingModule {
  /** Portfolio risk with weather alerts: `provider` (exported by `module`) implements AlertAreas. */
  static withAlertAreas(alerts: { module: Type<unknown> | DynamicModule; provider: unknown }): DynamicModule {
    return {
      module: BankingModule,
      imports: [alerts.module],
      providers: [{ provide: ALERT_AREAS, useExisting: alerts.provider as never }],
    };
  }
}
