import type { ContextManifest } from '../../platform/src/index.js';
import { bankingAsOf } from './as-of.js';
import { cancelReverificationSchedule } from './commands/cancel-schedule/cancel-schedule.handler.js';
import { registerLoan, registerLoanInBulk } from './loans/loan-commands.js';
import { scheduleReverification } from './commands/schedule-reverification/schedule-reverification.handler.js';
import { bankingEventTypes } from './event-types.js';
import { BankingNotifications } from './notifications/banking-notifications.js';
import { BorrowerSightings } from './public/borrower-sightings.view.js';
import { CollectionsConsents } from './public/collections-consents.view.js';
import { COLLECTION_LOANS_READ_MODEL } from './public/collection-loans.read-model.js';
import { REVERIFICATION_SCHEDULES_READ_MODEL } from './public/reverification-schedules.read-model.js';
import { recordReverificationRun } from './reverification/record-run.handler.js';
import { REVERIFICATION_QUEUE } from './reverification/reverification-jobs.js';
import { GetScheduleQuery } from './queries/get-schedule/get-schedule.handler.js';
import { ListSchedulesQuery } from './queries/list-schedules/list-schedules.handler.js';
import { LocateBorrowerQuery } from './queries/locate-borrower/locate-borrower.handler.js';
import { PortfolioRiskQuery } from './queries/portfolio-risk/portfolio-risk.handler.js';
import { RetailDensityQuery } from './queries/retail-density/retail-density.handler.js';

/** What the banking context brings to a process (checked at start-up). */
export const bankingManifest: ContextManifest = {
  name: 'banking',
  events: bankingEventTypes,
  commands: [registerLoan, registerLoanInBulk, scheduleReverification, recordReverificationRun, cancelReverificationSchedule],
  queries: [LocateBorrowerQuery, PortfolioRiskQuery, GetScheduleQuery, ListSchedulesQuery, RetailDensityQuery],
  readModels: { projections: [COLLECTION_LOANS_READ_MODEL.name, REVERIFICATION_SCHEDULES_READ_MODEL.name], views: [CollectionsConsents.readModel, BorrowerSightings.readModel] },
  jobs: [REVERIFICATION_QUEUE],
  notifications: [{ token: BankingNotifications, notifies: BankingNotifications.notifies, from: BankingNotifications.from }],
  asOf: bankingAsOf,
};
