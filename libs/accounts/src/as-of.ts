import { firstTime, hashEmail, safeSummary, streamContributor, type AsOfContributor, type RecordedEvent } from '../../platform/src/index.js';
import { accountDecider, type AccountEvent, type AccountState } from './domain/account.js';
import { apiKeyDecider, type ApiKeyEvent, type ApiKeyState, type Tier } from './domain/api-key.js';
import { dailyLimitOf } from './quota.js';
import { userDecider, userIdForAccount, type UserEvent, type UserState } from './domain/user.js';

/** The time field each of this context's events is dated by, in the order they are looked for. */
const timeField = (event: RecordedEvent) =>
  firstTime(event, ['opened_at', 'changed_at', 'issued_at', 'revoked_at', 'registered_at', 'attached_at', 'rehashed_at', 'requested_at', 'reset_at', 'linked_at']);

/** E-mail addresses are shown hashed (`email_sha256`), as in the views. */
function summary(event: RecordedEvent): Record<string, unknown> {
  const shown = safeSummary(event.data);
  if (typeof shown.email === 'string') {
    shown.email_sha256 = hashEmail(shown.email);
    delete shown.email;
  }
  return shown;
}

const only = <State>(states: ReadonlyMap<string, State>): State | undefined => states.values().next().value;

const account = streamContributor<AccountState, AccountEvent>({
  name: 'account',
  prefixes: (accountId) => [`account-${accountId}`],
  decider: accountDecider,
  timeField,
  summary,
  view: (states) => {
    const state = only(states);
    if (!state || state.status !== 'open') return null;
    const { account } = state;
    return {
      account_id: account.account_id,
      name: account.name,
      email_sha256: hashEmail(account.email),
      tier: account.tier,
      daily_limit: dailyLimitOf(account.tier),
      banking_access: account.banking,
      ip_allowlist: [...account.ip_allowlist],
      opened_at: account.opened_at,
    };
  },
});

const keys = streamContributor<ApiKeyState, ApiKeyEvent>({
  name: 'keys',
  prefixes: () => ['api_key-'],
  decider: apiKeyDecider,
  timeField,
  summary,
  view: (states) =>
    Object.fromEntries(
      [...states.values()]
        .filter((state) => state.status !== 'none')
        .map((state) => {
          const issued = (state as Exclude<ApiKeyState, { status: 'none' }>).issued;
          const revoked = state.status === 'revoked' ? state.revoked : null;
          return [issued.key_prefix, { kind: issued.kind, state: state.status, tier: issued.tier, daily_limit: dailyLimitOf(issued.tier), issued_at: issued.issued_at, expires_at: issued.expires_at, revoked_at: revoked?.revoked_at ?? null, revoke_reason: revoked?.reason ?? null }];
        })
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    ),
  // A key of an open account has the account's tier, as GET /v2/me answers (KeyDirectory.tierOf); the tier issued with it applies only without one.
  resolve: (own, state) => {
    const tier = (state.account as { tier?: Tier } | null | undefined)?.tier;
    if (!tier || !own || typeof own !== 'object') return own;
    return Object.fromEntries(Object.entries(own as Record<string, Record<string, unknown>>).map(([prefix, key]) => [prefix, { ...key, tier, daily_limit: dailyLimitOf(tier) }]));
  },
});

const users = streamContributor<UserState, UserEvent>({
  name: 'users',
  prefixes: (accountId) => [`user-${userIdForAccount(accountId)}`],
  decider: userDecider,
  timeField,
  summary,
  view: (states) =>
    Object.fromEntries(
      [...states.values()]
        .filter((state) => state.status === 'registered')
        .map((state) => {
          const user = state as Extract<UserState, { status: 'registered' }>;
          return [hashEmail(user.email), { user_id: user.user_id, password_set_at: user.password?.set_at ?? null, google_linked: user.google_subject !== null }];
        }),
    ),
});

/** The accounts context's part of an account as of an instant (docs/adr/0023): the account, its keys, its users. */
export const accountsAsOf: readonly AsOfContributor[] = [account, keys, users];
