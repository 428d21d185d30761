import type { AccountState } from './domain/account.js';
import { dailyLimitOf } from './quota.js';

/** What the operator endpoints and `npm run ops -- accounts:*` answer: the account after the action. */
export function accountView(state: AccountState) {
  if (state.status !== 'open') throw new Error('an operator action answered an account that is not open');
  const { account } = state;
  return {
    account_id: account.account_id,
    name: account.name,
    email: account.email,
    tier: account.tier,
    daily_limit: dailyLimitOf(account.tier),
    banking: account.banking,
    ip_allowlist: account.ip_allowlist,
    rate_overrides: account.rate_overrides,
    opened_at: account.opened_at,
  };
}
