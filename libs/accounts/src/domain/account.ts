import type { Decider } from '../../../platform/src/commands/decider.js';
import type { Tier } from './api-key.js';
import { AccountNotFoundError } from './errors.js';
import { normaliseRateOverrides, type RateOverrides } from './rate-overrides.js';

/**
 * The account aggregate: plan tier, banking provisioning and the IP allowlist
 * (decisions.md, "Operator interface"). Every operator action is an event.
 */
export interface AccountOpened {
  type: 'AccountOpened';
  data: { account_id: string; name: string; email: string; tier: Tier; opened_at: string };
}
export interface AccountTierChanged {
  type: 'AccountTierChanged';
  data: { account_id: string; tier: Tier; changed_at: string };
}
export interface BankingAccessChanged {
  type: 'BankingAccessChanged';
  data: { account_id: string; enabled: boolean; changed_at: string };
}
export interface IpAllowlistReplaced {
  type: 'IpAllowlistReplaced';
  /** Normalised entries; empty removes the allowlist. */
  data: { account_id: string; entries: string[]; changed_at: string };
}

export interface RateOverridesReplaced {
  type: 'RateOverridesReplaced';
  /** Per-minute rates by endpoint group that replace the tier's for every key of the account (docs/adr/0060); empty removes them all. */
  data: { account_id: string; rates: RateOverrides; changed_at: string };
}

export type AccountEvent = AccountOpened | AccountTierChanged | BankingAccessChanged | IpAllowlistReplaced | RateOverridesReplaced;
export const ACCOUNT_EVENT_TYPES = ['AccountOpened', 'AccountTierChanged', 'BankingAccessChanged', 'IpAllowlistReplaced', 'RateOverridesReplaced'] as const;

export interface Account {
  account_id: string;
  name: string;
  email: string;
  tier: Tier;
  banking: boolean;
  ip_allowlist: string[];
  /** The operator's per-minute rates for this account (docs/adr/0060); `{}`: the tier's rates. */
  rate_overrides: RateOverrides;
  opened_at: string;
}

export type AccountState = { status: 'none' } | { status: 'open'; account: Account };
export const initialAccountState: AccountState = { status: 'none' };

export function accountStream(accountId: string): string {
  return `account-${accountId}`;
}

export function evolveAccount(state: AccountState, event: AccountEvent): AccountState {
  switch (event.type) {
    case 'AccountOpened': {
      const { account_id, name, email, tier, opened_at } = event.data;
      return { status: 'open', account: { account_id, name, email, tier, opened_at, banking: false, ip_allowlist: [], rate_overrides: {} } };
    }
    case 'AccountTierChanged':
      return state.status === 'open' ? { status: 'open', account: { ...state.account, tier: event.data.tier } } : state;
    case 'BankingAccessChanged':
      return state.status === 'open' ? { status: 'open', account: { ...state.account, banking: event.data.enabled } } : state;
    case 'IpAllowlistReplaced':
      return state.status === 'open' ? { status: 'open', account: { ...state.account, ip_allowlist: event.data.entries } } : state;
    case 'RateOverridesReplaced':
      return state.status === 'open' ? { status: 'open', account: { ...state.account, rate_overrides: event.data.rates } } : state;
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

export interface OpenAccount {
  type: 'OpenAccount';
  account_id: string;
  name: string;
  email: string;
  tier: Tier;
}
export interface ChangeTier {
  type: 'ChangeTier';
  account_id: string;
  tier: Tier;
}
export interface SetBankingAccess {
  type: 'SetBankingAccess';
  account_id: string;
  enabled: boolean;
}
export interface ReplaceIpAllowlist {
  type: 'ReplaceIpAllowlist';
  account_id: string;
  /** Normalised by IpAllowlist.parse at the edge. */
  entries: string[];
}
export interface ReplaceRateOverrides {
  type: 'ReplaceRateOverrides';
  account_id: string;
  /** Checked at the edge (whole numbers from 1 to MAX_RATE_OVERRIDE, known groups). */
  rates: RateOverrides;
}
export type AccountCommand = OpenAccount | ChangeTier | SetBankingAccess | ReplaceIpAllowlist | ReplaceRateOverrides;

/** An account id chosen twice: ids are random, so this is a defect, never a client error. */
export class AccountExistsError extends Error {}

/**
 * Operator actions that change nothing still record an event: the account's
 * history shows every request, from the admin endpoints and from `npm run ops`
 * alike. So an operator action is idempotent in its outcome, not in its events.
 */
function decideAccount(command: AccountCommand, state: AccountState, now: Date): AccountEvent[] {
  if (command.type === 'OpenAccount') {
    if (state.status !== 'none') throw new AccountExistsError(command.account_id);
    const { account_id, name, email, tier } = command;
    return [{ type: 'AccountOpened', data: { account_id, name, email, tier, opened_at: now.toISOString() } }];
  }
  if (state.status !== 'open') throw new AccountNotFoundError(command.account_id);
  const account_id = state.account.account_id;
  const changed_at = now.toISOString();
  switch (command.type) {
    case 'ChangeTier':
      return [{ type: 'AccountTierChanged', data: { account_id, tier: command.tier, changed_at } }];
    case 'SetBankingAccess':
      return [{ type: 'BankingAccessChanged', data: { account_id, enabled: command.enabled, changed_at } }];
    case 'ReplaceIpAllowlist':
      return [{ type: 'IpAllowlistReplaced', data: { account_id, entries: command.entries, changed_at } }];
    case 'ReplaceRateOverrides':
      return [{ type: 'RateOverridesReplaced', data: { account_id, rates: normaliseRateOverrides(command.rates), changed_at } }];
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
}

export const accountDecider: Decider<AccountCommand, AccountState, AccountEvent> = {
  initialState: initialAccountState,
  evolve: evolveAccount,
  decide: decideAccount,
};
