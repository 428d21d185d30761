import { hash } from 'node:crypto';
import {
  accountDecider,
  apiKeyDecider,
  userDecider,
  userIdForAccount,
  type AccountEvent,
  type AccountState,
  type ApiKeyEvent,
  type ApiKeyState,
  type UserEvent,
  type UserState,
} from '../../../accounts/src/index.js';
import { consentDecider, geofenceDecider, type ConsentEvent, type ConsentState, type GeofenceEvent, type GeofenceState } from '../../../monitoring/src/index.js';
import { loanDecider, scheduleDecider, type LoanEvent, type LoanState, type ScheduleEvent, type ScheduleState } from '../../../banking/src/index.js';
import { webhookDecider, type WebhookEvent, type WebhookState } from '../../../webhooks/src/index.js';
import type { RecordedEvent } from '../../../platform/src/index.js';
import { firstTime, safeSummary, streamContributor, type AsOfContributor } from './contributor.js';

/** Every decider's own time fields, in the order an event is dated by. */
const TIME_FIELDS = [
  'opened_at',
  'changed_at',
  'issued_at',
  'revoked_at',
  'registered_at',
  'attached_at',
  'rehashed_at',
  'requested_at',
  'reset_at',
  'linked_at',
  'granted_at',
  'erased_at',
  'configured_at',
  'removed_at',
  'created_at',
  'deleted_at',
  'scheduled_at',
  'ran_at',
  'cancelled_at',
] as const;

const timeField = (event: RecordedEvent) => firstTime(event, TIME_FIELDS);

/** E-mail addresses appear as SHA-256 of the trimmed, lower-cased address: the auditor can match a known address, the replay discloses none. */
export function hashEmail(email: string): string {
  return hash('sha256', email.trim().toLowerCase(), 'hex');
}

function hashedSummary(event: RecordedEvent): Record<string, unknown> {
  const summary = safeSummary(event.data);
  if (typeof summary.email === 'string') {
    summary.email_sha256 = hashEmail(summary.email);
    delete summary.email;
  }
  // Fence geometry is long and says nothing about access; the fence's state keeps it.
  delete summary.polygon;
  return summary;
}

const only = <State>(states: ReadonlyMap<string, State>): State | undefined => states.values().next().value;

export const accountContributor = streamContributor<AccountState, AccountEvent>({
  name: 'account',
  prefixes: (accountId) => [`account-${accountId}`],
  decider: accountDecider,
  timeField,
  summary: hashedSummary,
  view: (states) => {
    const state = only(states);
    if (!state || state.status !== 'open') return null;
    const { account } = state;
    return {
      account_id: account.account_id,
      name: account.name,
      email_sha256: hashEmail(account.email),
      tier: account.tier,
      banking_access: account.banking,
      ip_allowlist: [...account.ip_allowlist],
      opened_at: account.opened_at,
    };
  },
});

export const keysContributor = streamContributor<ApiKeyState, ApiKeyEvent>({
  name: 'keys',
  prefixes: () => ['api_key-'],
  decider: apiKeyDecider,
  timeField,
  summary: hashedSummary,
  view: (states) =>
    Object.fromEntries(
      [...states.values()]
        .filter((state) => state.status !== 'none')
        .map((state) => {
          const issued = (state as Exclude<ApiKeyState, { status: 'none' }>).issued;
          const revoked = state.status === 'revoked' ? state.revoked : null;
          return [issued.key_prefix, { kind: issued.kind, state: state.status, tier: issued.tier, issued_at: issued.issued_at, expires_at: issued.expires_at, revoked_at: revoked?.revoked_at ?? null, revoke_reason: revoked?.reason ?? null }];
        })
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    ),
});

export const usersContributor = streamContributor<UserState, UserEvent>({
  name: 'users',
  prefixes: (accountId) => [`user-${userIdForAccount(accountId)}`],
  decider: userDecider,
  timeField,
  summary: hashedSummary,
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

export const consentsContributor = streamContributor<ConsentState, ConsentEvent>({
  name: 'consents',
  prefixes: (accountId) => [`consent-${accountId}:`],
  decider: consentDecider,
  timeField,
  view: (states) =>
    Object.fromEntries(
      [...states.entries()]
        .filter(([, state]) => state.status !== 'none')
        .map(([stream, state]) => {
          const consent = state as Exclude<ConsentState, { status: 'none' }>;
          const customerId = stream.slice(stream.indexOf(':') + 1);
          return [
            customerId,
            {
              purpose: consent.purpose,
              state: consent.status,
              scope: [...consent.scope],
              granted_at: consent.granted_at,
              revoked_at: consent.status === 'revoked' ? consent.revoked_at : null,
              erased_at: consent.status === 'revoked' ? (consent.erased?.at ?? null) : null,
            },
          ];
        })
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    ),
});

export const webhookContributor = streamContributor<WebhookState, WebhookEvent>({
  name: 'webhook',
  prefixes: (accountId) => [`webhook-${accountId}`],
  decider: webhookDecider,
  timeField,
  view: (states) => {
    const state = only(states);
    // Never the secret, only its length.
    return state?.status === 'configured' ? { url: state.url, event_types: [...state.event_types], secret_length: state.secret_length, configured_at: state.configured_at } : null;
  },
});

export const geofencesContributor = streamContributor<GeofenceState, GeofenceEvent>({
  name: 'geofences',
  prefixes: (accountId) => [`geofence-${accountId}:`],
  decider: geofenceDecider,
  timeField,
  summary: hashedSummary,
  view: (states) =>
    Object.fromEntries(
      [...states.values()]
        .filter((state) => state.status !== 'none')
        .map((state) => {
          const { fence } = state as Exclude<GeofenceState, { status: 'none' }>;
          return [
            fence.fence_id,
            {
              state: state.status,
              name: fence.name,
              fence_type: fence.fence_type,
              customer_id: fence.customer_id,
              loan_id: fence.loan_id,
              center: fence.center,
              radius_m: fence.radius_m,
              polygon: fence.polygon,
              created_at: fence.created_at,
              deleted_at: state.status === 'deleted' ? state.deleted_at : null,
            },
          ];
        })
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    ),
});

const idAfterColon = (stream: string) => stream.slice(stream.indexOf(':') + 1);

export const loansContributor = streamContributor<LoanState, LoanEvent>({
  name: 'collection_loans',
  prefixes: (accountId) => [`collection_loan-${accountId}:`],
  decider: loanDecider,
  timeField,
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
});

export const schedulesContributor = streamContributor<ScheduleState, ScheduleEvent>({
  name: 'reverification_schedules',
  prefixes: (accountId) => [`reverification_schedule-${accountId}:`],
  decider: scheduleDecider,
  timeField,
  view: (states) =>
    Object.fromEntries(
      [...states.entries()]
        .filter(([, state]) => state.status !== 'none')
        .map(([stream, state]) => [idAfterColon(stream), state])
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    ),
});

/** The contributors every process registers (docs/adr/0023, "Adding a context"). */
export const AS_OF_CONTRIBUTORS: readonly AsOfContributor[] = [
  accountContributor,
  keysContributor,
  usersContributor,
  consentsContributor,
  webhookContributor,
  geofencesContributor,
  loansContributor,
  schedulesContributor,
];
