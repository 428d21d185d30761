// The banking context's public API: what the apps, the projections and the tests use.
export * from './domain/loan.js';
export * from './domain/schedule.js';
export * from './domain/risk.js';
export * from './domain/errors.js';
export * from './event-types.js';
export {
  COLLECTION_LOANS_READ_MODEL,
  COLLECTION_LOAN_INDEXES,
  isLoanDoc,
  evolveLoanDoc,
  eraseLoanDoc,
  CollectionLoans,
  type CollectionLoanDoc,
  type LoanErasureMarkerDoc,
  type CollectionLoansDoc,
  type BookEntry,
} from './public/collection-loans.read-model.js';
export {
  REVERIFICATION_SCHEDULES_READ_MODEL,
  REVERIFICATION_SCHEDULE_INDEXES,
  evolveScheduleDoc,
  eraseScheduleDoc,
  ReverificationSchedules,
  type ScheduleDoc,
  type ScheduleView,
} from './public/reverification-schedules.read-model.js';
export { ALERT_AREAS, noAlertAreas, type AlertAreas } from './risk/alert-areas.port.js';
export { BankingModule, BankingNotificationsModule } from './banking.module.js';
export { bankingManifest } from './manifest.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { bankingContext } from './context.js';
