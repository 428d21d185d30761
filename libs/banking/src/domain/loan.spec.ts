import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { loanDecider, loanStream, registrationOutcome, type LoanTerms, type RegisterLoan } from './loan.js';

const t0 = new Date('2026-11-23T09:00:00.000Z');
const t1 = new Date('2026-11-24T09:00:00.000Z');
const { given, history } = deciderSpec(loanDecider, t0);
const terms: LoanTerms = { customer_id: 'cust-1', zone: { type: 'point', lat: 5.55, lng: -0.21, radius_m: 300 }, expected_collection_days: 7, anchor: { lat: 5.55, lng: -0.21 } };
const register = (overrides: Partial<LoanTerms> = {}): RegisterLoan => ({ type: 'RegisterLoan', account_id: 'acct_1', loan_id: 'loan-1', terms: { ...terms, ...overrides } });

describe('loan decider', () => {
  it('records a registration with its account, for a replay as of any time', () => {
    const { events, state } = given([]).when(register());
    expect(events).toEqual([{ type: 'CollectionLoanRegistered', data: { account_id: 'acct_1', loan_id: 'loan-1', ...terms, registered_at: t0.toISOString() } }]);
    expect(state).toMatchObject({ status: 'registered', registrations: 1, first_registered_at: t0.toISOString() });
    expect(registrationOutcome({ status: 'none' }, events)).toBe('created');
  });

  it('records nothing for the same terms again (idempotent by loan id), and new terms as a new registration', () => {
    const past = history(register());
    const same = given(past).when(register(), t1);
    expect(same.events).toEqual([]);
    expect(registrationOutcome(same.state, same.events)).toBe('unchanged');
    const changed = given(past).when(register({ expected_collection_days: null }), t1);
    expect(changed.events).toHaveLength(1);
    expect(registrationOutcome(given(past).state, changed.events)).toBe('updated');
    expect(changed.state).toMatchObject({ registrations: 2, first_registered_at: t0.toISOString(), registered_at: t1.toISOString(), terms: { expected_collection_days: null } });
  });

  it('names streams without a dash in the category, and refuses a malformed loan id', () => {
    expect(loanStream('acct_1', 'loan-1')).toBe('collection_loan-acct_1:loan-1');
    expect(() => loanStream('acct_1', 'no spaces')).toThrow(expect.objectContaining({ code: 'INVALID_PARAM', field: 'loan_id' }));
  });
});
