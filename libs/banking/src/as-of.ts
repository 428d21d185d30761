import { firstTime, safeSummary, streamContributor, type AsOfContributor } from '../../platform/src/index.js';
import { loanDecider, type LoanEvent, type LoanState } from './domain/loan.js';
import { scheduleDecider, type ScheduleEvent, type ScheduleState } from './domain/schedule.js';

const idAfterColon = (stream: string) => stream.slice(stream.indexOf(':') + 1);

/** The banking context's part of an account as of an instant (docs/adr/0023): collection loans and re-verification schedules. */
export const bankingAsOf: readonly AsOfContributor[] = [
  streamContributor<LoanState, LoanEvent>({
    name: 'collection_loans',
    prefixes: (accountId) => [`collection_loan-${accountId}:`],
    decider: loanDecider,
    timeField: (event) => firstTime(event, ['registered_at']),
    // Zone geometry is long and says nothing about access; the loan's state keeps it.
    summary: (event) => {
      const summary = safeSummary(event.data);
      delete summary.zone;
      return summary;
    },
    view: (states) =>
      Object.fromEntries(
        [...states.entries()]
          .filter(([, state]) => state.status === 'registered')
          .map(([stream, state]) => {
            const { terms, first_registered_at, registered_at, registrations } = state as Extract<LoanState, { status: 'registered' }>;
            return [idAfterColon(stream), { ...terms, first_registered_at, registered_at, registrations }];
          })
          .sort(([a], [b]) => String(a).localeCompare(String(b))),
      ),
  }),
  streamContributor<ScheduleState, ScheduleEvent>({
    name: 'reverification_schedules',
    prefixes: (accountId) => [`reverification_schedule-${accountId}:`],
    decider: scheduleDecider,
    timeField: (event) => firstTime(event, ['scheduled_at', 'ran_at', 'cancelled_at', 'stopped_at']),
    view: (states) =>
      Object.fromEntries(
        [...states.entries()]
          .filter(([, state]) => state.status !== 'none')
          .map(([stream, state]) => [idAfterColon(stream), state])
          .sort(([a], [b]) => String(a).localeCompare(String(b))),
      ),
  }),
];
