import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { accountDecider, AccountExistsError, type AccountCommand } from './account.js';
import { AccountNotFoundError } from './errors.js';

const now = new Date('2026-11-22T08:00:00.000Z');
const { given, history } = deciderSpec(accountDecider, now);
const open: AccountCommand = { type: 'OpenAccount', account_id: 'acct_1', name: 'Ama', email: 'ama@example.com', tier: 'free' };

describe('account decider', () => {
  it('opens a free account without banking and without an allowlist', () => {
    const { events, state } = given([]).when(open);
    expect(events).toEqual([{ type: 'AccountOpened', data: { account_id: 'acct_1', name: 'Ama', email: 'ama@example.com', tier: 'free', opened_at: now.toISOString() } }]);
    expect(state).toEqual({
      status: 'open',
      account: { account_id: 'acct_1', name: 'Ama', email: 'ama@example.com', tier: 'free', banking: false, ip_allowlist: [], rate_overrides: {}, opened_at: now.toISOString() },
    });
  });

  it('refuses to open an account id twice', () => {
    expect(given(history(open)).when(open).error).toBeInstanceOf(AccountExistsError);
  });

  it('changes tier, banking and allowlist by events', () => {
    const events = history(
      open,
      { type: 'ChangeTier', account_id: 'acct_1', tier: 'pro' },
      { type: 'SetBankingAccess', account_id: 'acct_1', enabled: true },
      { type: 'ReplaceIpAllowlist', account_id: 'acct_1', entries: ['10.0.0.0/8'] },
    );
    expect(events.map((event) => event.type)).toEqual(['AccountOpened', 'AccountTierChanged', 'BankingAccessChanged', 'IpAllowlistReplaced']);
    expect(given(events).state).toMatchObject({ account: { tier: 'pro', banking: true, ip_allowlist: ['10.0.0.0/8'] } });
  });

  it('replaces the rate overrides as a whole, in the groups\' order; an empty set removes them', () => {
    const first = history(open, { type: 'ReplaceRateOverrides', account_id: 'acct_1', rates: { transit: 400, routing: 900 } });
    expect(first[1]).toEqual({ type: 'RateOverridesReplaced', data: { account_id: 'acct_1', rates: { routing: 900, transit: 400 }, changed_at: now.toISOString() } });
    expect(Object.keys((first[1].data as { rates: object }).rates)).toEqual(['routing', 'transit']);
    const { state } = given(first).when({ type: 'ReplaceRateOverrides', account_id: 'acct_1', rates: { language: 50 } });
    const overrides = (of: typeof state) => (of.status === 'open' ? of.account.rate_overrides : undefined);
    expect(overrides(state)).toEqual({ language: 50 });
    expect(overrides(given(first).when({ type: 'ReplaceRateOverrides', account_id: 'acct_1', rates: {} }).state)).toEqual({});
  });

  it('records an operator action that changes nothing, so the history shows every request', () => {
    const { events, state } = given(history(open)).when({ type: 'ChangeTier', account_id: 'acct_1', tier: 'free' });
    expect(events).toEqual([{ type: 'AccountTierChanged', data: { account_id: 'acct_1', tier: 'free', changed_at: now.toISOString() } }]);
    expect(state).toMatchObject({ account: { tier: 'free' } });
  });

  it('refuses operator actions on an account that does not exist: 404 ACCOUNT_NOT_FOUND', () => {
    const { error } = given([]).when({ type: 'ChangeTier', account_id: 'acct_missing', tier: 'pro' });
    expect(error).toBeInstanceOf(AccountNotFoundError);
    expect(error).toMatchObject({ code: 'ACCOUNT_NOT_FOUND', status: 404, message: 'no account acct_missing' });
  });
});
