import { EventRegistry } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents } from '../../../test/support/stored-events.js';
import { accountDecider, ACCOUNT_EVENT_TYPES, type AccountEvent } from './domain/account.js';
import { API_KEY_EVENT_TYPES, apiKeyDecider, type ApiKeyEvent } from './domain/api-key.js';
import { USER_EVENT_TYPES, userDecider, type UserEvent } from './domain/user.js';
import { accountsEventTypes } from './event-types.js';

/** Stored JSON from schema version 1 must still fold into today's state (style.md: upcasters against fixtures). */
const stored = readStoredEvents(new URL('./__fixtures__/accounts-events.v1.json', import.meta.url));
const inStream = (prefix: string) => stored.filter((event) => event.stream?.startsWith(prefix));

describe('accounts event types', () => {
  const registry = new EventRegistry().register(...accountsEventTypes);

  it('registers every event type of the three aggregates, each with a version, and nothing else', () => {
    const types = [...API_KEY_EVENT_TYPES, ...ACCOUNT_EVENT_TYPES, ...USER_EVENT_TYPES];
    for (const type of types) expect(registry.version(type)).toBe(1);
    expect(accountsEventTypes.map((definition) => definition.type).sort()).toEqual([...types].sort());
  });

  it('has a stored version-1 fixture of every registered type', () => {
    expect(new Set(stored.map((event) => event.type))).toEqual(new Set(accountsEventTypes.map((definition) => definition.type)));
  });

  it('reads version-1 account events into an open pro account with banking, an allowlist and rate overrides', () => {
    const events = upcastStoredEvents<AccountEvent>(registry, inStream('account-'));
    expect(events.reduce(accountDecider.evolve, accountDecider.initialState)).toEqual({
      status: 'open',
      account: {
        account_id: 'acct_fixture',
        name: 'Ama Mensah',
        email: 'ama@example.com',
        tier: 'pro',
        banking: true,
        ip_allowlist: ['203.0.113.7', '10.0.0.0/8'],
        rate_overrides: { routing: 900, transit: 400 },
        opened_at: '2026-11-22T08:00:00.000Z',
      },
    });
  });

  it('reads version-1 key events into a key revoked by rotation (stored before personal tokens: no user_id)', () => {
    const events = upcastStoredEvents<ApiKeyEvent>(registry, inStream('api_key-'));
    const state = events.reduce(apiKeyDecider.evolve, apiKeyDecider.initialState);
    expect(state).toMatchObject({
      status: 'revoked',
      issued: { key_id: '8f1c2d3e-0000-4000-8000-000000000001', kind: 'account', account_id: 'acct_fixture', tier: 'free', expires_at: null },
      revoked: { reason: 'rotated', replaced_by: '8f1c2d3e-0000-4000-8000-000000000002', revoked_at: '2026-11-22T10:00:00.000Z' },
    });
    expect(state.status === 'revoked' && state.issued.user_id).toBeUndefined();
  });

  it('reads version-1 user events into a user with a reset password, no pending tokens and a Google link', () => {
    const events = upcastStoredEvents<UserEvent>(registry, inStream('user-'));
    expect(events.reduce(userDecider.evolve, userDecider.initialState)).toEqual({
      status: 'registered',
      user_id: 'usr_fixture',
      account_id: 'acct_fixture',
      email: 'ama@example.com',
      // Attached (1), changed (2), reset (3): the rehash kept the epoch; the reset voided the other token.
      password: { hash: '$2b$12$KIXQJ8s1l5Yq0bZ2p6b6rO9cK3QX3c8F2Z1d4v1xP3bqO7yJ8nQ2i', set_at: '2026-11-22T13:10:00.000Z', epoch: 3 },
      google_subject: '110169484474386276334',
      pending_resets: {},
    });
  });
});
