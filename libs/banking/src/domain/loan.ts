import type { Decider } from '../../../platform/src/commands/decider.js';
import { CALLER_ID, parseCallerId } from '../../../platform/src/ids/caller-id.js';

/**
 * A loan registered for collection tracking (interface.md, "Banking
 * features": POST /v2/collections/register): whose it is, and the zone the
 * borrower is expected to be found in — a point with a radius, an H3 cell
 * given as a hex code, or a polygon. One stream per (account, loan). The zone
 * is the lender's definition, not collected location data: it is stored in
 * clear, as a geofence is (ADR 12), and untouched by a customer's erasure.
 */
export const LOAN_ID = CALLER_ID;
export const MAX_COLLECTION_DAYS = 365;

export type CollectionZone =
  | { type: 'point'; lat: number; lng: number; radius_m: number }
  /** `h3_cell` is the cell the code names (kept so that readers need not decode it). */
  | { type: 'hex'; code: string; h3_cell: string }
  | { type: 'polygon'; polygon: { type: 'Polygon'; coordinates: number[][][] } };

// A type, not an interface: event payloads built on it stay comparable with the log's Record<string, unknown> (interfaces have no implicit index signature).
export type LoanTerms = {
  customer_id: string;
  zone: CollectionZone;
  /** Days between expected collections (a weekly loan: 7); null when the lender gave none. */
  expected_collection_days: number | null;
  /** A point inside the zone (circle centre, cell centre, polygon's first vertex mean): concentration is counted by it. */
  anchor: { lat: number; lng: number };
};

/**
 * Every registration, the first and each change of terms. A change is the
 * same type again: the latest registration holds (as of any time, the last
 * one at or before it), which is what a replay "as of" folds.
 */
export interface CollectionLoanRegistered {
  type: 'CollectionLoanRegistered';
  data: LoanTerms & { account_id: string; loan_id: string; registered_at: string };
}
export type LoanEvent = CollectionLoanRegistered;
export const LOAN_EVENT_TYPES = ['CollectionLoanRegistered'] as const satisfies readonly LoanEvent['type'][];

export type LoanState = { status: 'none' } | { status: 'registered'; terms: LoanTerms; first_registered_at: string; registered_at: string; registrations: number };
export const initialLoanState: LoanState = { status: 'none' };

export interface RegisterLoan {
  type: 'RegisterLoan';
  account_id: string;
  loan_id: string;
  terms: LoanTerms;
}

/** What a registration did: `created`, `updated` (new terms) or `unchanged` (the same terms again: idempotent by loan_id). */
export type RegistrationOutcome = 'created' | 'updated' | 'unchanged';

export function parseLoanId(value: unknown, field = 'loan_id'): string {
  return parseCallerId(value, field);
}

/** `collection_loan-<account>:<loan>`: no dash inside the category (EventStoreDB's category projection sees `collection_loan`). */
export function loanStream(accountId: string, loanId: string): string {
  return `collection_loan-${accountId}:${parseLoanId(loanId)}`;
}

export function evolveLoan(state: LoanState, event: LoanEvent): LoanState {
  switch (event.type) {
    case 'CollectionLoanRegistered': {
      const { customer_id, zone, expected_collection_days, anchor, registered_at } = event.data;
      const terms = { customer_id, zone, expected_collection_days, anchor };
      return state.status === 'none'
        ? { status: 'registered', terms, first_registered_at: registered_at, registered_at, registrations: 1 }
        : { ...state, terms, registered_at, registrations: state.registrations + 1 };
    }
    default: {
      const _exhaustive: never = event.type;
      return _exhaustive;
    }
  }
}

export function sameTerms(a: LoanTerms, b: LoanTerms): boolean {
  return a.customer_id === b.customer_id && a.expected_collection_days === b.expected_collection_days && JSON.stringify(a.zone) === JSON.stringify(b.zone);
}

export function decideLoan(command: RegisterLoan, state: LoanState, now: Date): LoanEvent[] {
  if (state.status === 'registered' && sameTerms(state.terms, command.terms)) return [];
  return [{ type: 'CollectionLoanRegistered', data: { account_id: command.account_id, loan_id: command.loan_id, ...command.terms, registered_at: now.toISOString() } }];
}

export function registrationOutcome(previous: LoanState, decided: readonly LoanEvent[]): RegistrationOutcome {
  if (decided.length === 0) return 'unchanged';
  return previous.status === 'none' ? 'created' : 'updated';
}

export const loanDecider: Decider<RegisterLoan, LoanState, LoanEvent> = { initialState: initialLoanState, evolve: evolveLoan, decide: decideLoan };
