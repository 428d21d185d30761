import { firstTime, safeSummary, streamContributor, type AsOfContributor, type Fold } from '../../platform/src/index.js';
import { loanDecider, type LoanEvent, type LoanState } from './domain/loan.js';
import { isSealedLoan } from './loans/loan-sealing.js';
import { scheduleDecider, type ScheduleEvent, type ScheduleState } from './domain/schedule.js';

const idAfterColon = (stream: string) => stream.slice(stream.indexOf(':') + 1);

/** The banking context's part of an account as of an instant (docs/adr/0023): collection loans and re-verification schedules. */
/**
 * A loan as the replay folds it: a registration stored sealed (docs/adr/0055)
 * is folded without opening it (the replay is pure, and the zone places the
 * borrower: it is read under their key, never shown to an audit), so its
 * terms show as `terms_sealed` with the collection days; one stored before
 * sealing shows its terms as before.
 */
type AsOfLoan = LoanState & { terms_sealed?: boolean };
const asOfLoanFold: Fold<AsOfLoan, LoanEvent> = {
  initialState: loanDecider.initialState,
  evolve(state, event) {
    const data = event.data as unknown as Record<string, unknown>;
    if (!isSealedLoan(data)) {
      const { terms_sealed: _sealed, ...rest } = loanDecider.evolve(state, event) as AsOfLoan;
      return rest;
    }
    const sealedTerms = { customer_id: data.customer_id, expected_collection_days: data.expected_collection_days } as unknown as Extract<LoanState, { status: 'registered' }>['terms'];
    const registered = { ...data, ...sealedTerms } as unknown as LoanEvent['data'];
    return { ...(loanDecider.evolve(state, { type: event.type, data: registered }) as AsOfLoan), terms: sealedTerms, terms_sealed: true };
  },
};

export const bankingAsOf: readonly AsOfContributor[] = [
  streamContributor<AsOfLoan, LoanEvent>({
    name: 'collection_loans',
    prefixes: (accountId) => [`collection_loan-${accountId}:`],
    decider: asOfLoanFold,
    timeField: (event) => firstTime(event, ['registered_at']),
    // Zone geometry is long and says nothing about access; the loan's state keeps it (sealed since docs/adr/0055).
    summary: (event) => {
      const summary = safeSummary(event.data);
      delete summary.zone;
      delete summary.anchor;
      delete summary.borrower_ref;
      return summary;
    },
    view: (states) =>
      Object.fromEntries(
        [...states.entries()]
          .filter(([, state]) => state.status === 'registered')
          .map(([stream, state]) => {
            const { terms, first_registered_at, registered_at, registrations, terms_sealed } = state as Extract<AsOfLoan, { status: 'registered' }>;
            return [idAfterColon(stream), { ...terms, first_registered_at, registered_at, registrations, ...(terms_sealed ? { terms_sealed } : {}) }];
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
