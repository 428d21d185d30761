import { InvalidParamError } from '../../../platform/src/errors.js';
import {
  assertDataDeletable,
  consentStream,
  ConsentNotGrantedError,
  ConsentNotRevokedError,
  decideConsent,
  evolveConsent,
  initialConsentState,
  parseCustomerId,
  parseScope,
  type ConsentCommand,
  type ConsentEvent,
} from './consent.js';

const t1 = new Date('2026-11-22T08:00:00.000Z');
const t2 = new Date('2026-11-22T09:00:00.000Z');
const t3 = new Date('2026-11-22T10:00:00.000Z');
const who = { account_id: 'acct_1', customer_id: 'cust-42' };
const grant = (purpose: 'unspecified' | 'fleet_dispatch' | 'loan_collections', now: Date, scope = ['location']): ConsentCommand => ({ type: 'GrantConsent', ...who, purpose, scope, now });
const revoke = (now: Date): ConsentCommand => ({ type: 'RevokeConsent', ...who, now });

/** given past events, when a command, then the new events (or the error thrown). */
function given(events: ConsentEvent[]) {
  const state = events.reduce(evolveConsent, initialConsentState);
  return { when: (command: ConsentCommand) => decideConsent(command, state), state };
}
const history = (...commands: ConsentCommand[]) =>
  commands.reduce<ConsentEvent[]>((events, command) => [...events, ...given(events).when(command)], []);

describe('consent decider', () => {
  it('grants a first consent', () => {
    expect(given([]).when(grant('unspecified', t1))).toEqual([
      { type: 'ConsentGranted', data: { ...who, purpose: 'unspecified', scope: ['location'], granted_at: t1.toISOString() } },
    ]);
  });

  it('revokes a granted consent, keeping the purpose and scope it had', () => {
    const events = history(grant('fleet_dispatch', t1));
    expect(given(events).when(revoke(t2))).toEqual([{ type: 'ConsentRevoked', data: { ...who, revoked_at: t2.toISOString() } }]);
    expect(given(history(grant('fleet_dispatch', t1), revoke(t2))).state).toEqual({
      status: 'revoked',
      purpose: 'fleet_dispatch',
      scope: ['location'],
      granted_at: t1.toISOString(),
      revoked_at: t2.toISOString(),
    });
  });

  it('grants again after a revoke: grant → revoke → grant is granted with the new purpose', () => {
    const events = history(grant('fleet_dispatch', t1), revoke(t2), grant('loan_collections', t3));
    expect(events.map((event) => event.type)).toEqual(['ConsentGranted', 'ConsentRevoked', 'ConsentGranted']);
    expect(given(events).state).toEqual({ status: 'granted', purpose: 'loan_collections', scope: ['location'], granted_at: t3.toISOString() });
  });

  it('replaces purpose and scope when granting while granted', () => {
    const events = history(grant('unspecified', t1), grant('fleet_dispatch', t2, ['location', 'device']));
    expect(given(events).state).toEqual({ status: 'granted', purpose: 'fleet_dispatch', scope: ['location', 'device'], granted_at: t2.toISOString() });
  });

  it('refuses to revoke a consent never granted or already revoked', () => {
    expect(() => given([]).when(revoke(t1))).toThrow(ConsentNotGrantedError);
    expect(() => given(history(grant('unspecified', t1), revoke(t2))).when(revoke(t3))).toThrow(ConsentNotGrantedError);
  });

  it('allows data deletion only once revoked', () => {
    expect(() => assertDataDeletable(given([]).state, 'cust-42')).toThrow(ConsentNotRevokedError);
    expect(() => assertDataDeletable(given(history(grant('unspecified', t1))).state, 'cust-42')).toThrow(ConsentNotRevokedError);
    expect(assertDataDeletable(given(history(grant('unspecified', t1), revoke(t2))).state, 'cust-42')).toMatchObject({ status: 'revoked' });
    expect(() => assertDataDeletable(given(history(grant('unspecified', t1), revoke(t2), grant('unspecified', t3))).state, 'cust-42')).toThrow(
      ConsentNotRevokedError,
    );
  });
});

describe('consent values', () => {
  it('names the stream by account and customer', () => {
    expect(consentStream('acct_1', 'cust:42.a_b-c')).toBe('consent-acct_1:cust:42.a_b-c');
  });

  it.each([[''], ['x'.repeat(129)], ['has space'], ['é'], [42], [undefined]])('refuses the customer id %j', (value) => {
    expect(() => parseCustomerId(value)).toThrow(expect.objectContaining({ code: 'INVALID_PARAM', field: 'customer_id' }));
  });

  it('accepts a 128-character customer id', () => {
    expect(parseCustomerId('a'.repeat(128))).toHaveLength(128);
  });

  it('defaults the scope to location and removes duplicates', () => {
    expect(parseScope(undefined)).toEqual(['location']);
    expect(parseScope(['location', 'device', 'location'])).toEqual(['location', 'device']);
  });

  it.each([[[]], [Array.from({ length: 21 }, (_, i) => `s${i}`)], [['Location']], [['']], [['with space']]])('refuses the scope %j', (scope) => {
    expect(() => parseScope(scope)).toThrow(InvalidParamError);
    expect(() => parseScope(scope)).toThrow(expect.objectContaining({ field: 'scope' }));
  });
});
