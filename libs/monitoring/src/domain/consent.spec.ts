import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { InvalidParamError } from '../../../platform/src/errors.js';
import {
  assertDataDeletable,
  consentDecider,
  consentStream,
  ConsentNotGrantedError,
  ConsentNotRevokedError,
  parseCustomerId,
  parseScope,
  type ConsentCommand,
} from './consent.js';

const t1 = new Date('2026-11-22T08:00:00.000Z');
const t2 = new Date('2026-11-22T09:00:00.000Z');
const t3 = new Date('2026-11-22T10:00:00.000Z');
const who = { account_id: 'acct_1', customer_id: 'cust-42' };
const grant = (purpose: 'unspecified' | 'fleet_dispatch' | 'loan_collections', scope = ['location']): ConsentCommand => ({ type: 'GrantConsent', ...who, purpose, scope });
const revoke: ConsentCommand = { type: 'RevokeConsent', ...who };
const erase = (events_erased: number): ConsentCommand => ({ type: 'RecordErasure', ...who, erased_by: 'key_abc', events_erased, pseudonym: 'p-42' });
const { given, history } = deciderSpec(consentDecider);

describe('consent decider: what a grant captured (docs/adr/0032)', () => {
  const notice = { version: 'v3', sha256: 'a'.repeat(64), language: 'tw' };
  const captured = (extra: Partial<Extract<ConsentCommand, { type: 'GrantConsent' }>> = {}): ConsentCommand => ({
    type: 'GrantConsent',
    ...who,
    purpose: 'loan_collections',
    scope: ['location'],
    consent_id: 'cr_1',
    notice,
    channel: 'ussd',
    captured_at: '2026-11-22T07:59:00.000Z',
    proof: { kind: 'otp', reference: 'otp-1' },
    ...extra,
  });

  it('records the capture with the grant, and keeps it through a revoke', () => {
    const events = history([captured(), t1], [revoke, t2]);
    expect(events[0].data).toMatchObject({ consent_id: 'cr_1', notice, channel: 'ussd', captured_at: '2026-11-22T07:59:00.000Z', proof: { kind: 'otp', reference: 'otp-1' } });
    expect(given(events).state).toMatchObject({ status: 'revoked', consent_id: 'cr_1', notice, channel: 'ussd' });
  });

  it('answers a repeated capture with the standing grant (its consent id), and a new notice or channel with a new grant', () => {
    const standing = history([captured(), t1]);
    expect(given(standing).when(captured({ consent_id: 'cr_2' }), t2).events).toEqual([]);
    expect(given(standing).when(captured({ consent_id: 'cr_2', notice: { ...notice, version: 'v4' } }), t2).events).toHaveLength(1);
    expect(given(standing).when(captured({ consent_id: 'cr_2', channel: 'agent' }), t2).events).toHaveLength(1);
  });

  it('refuses a capture time more than five minutes ahead of the clock', () => {
    expect(given([]).when(captured({ captured_at: '2026-11-22T08:06:00.000Z' }), t1).error).toBeInstanceOf(InvalidParamError);
    expect(given([]).when(captured({ captured_at: '2026-11-22T08:04:00.000Z' }), t1).events).toHaveLength(1);
  });
});

describe('consent decider', () => {
  it('grants a first consent', () => {
    expect(given([]).when(grant('unspecified'), t1).events).toEqual([
      { type: 'ConsentGranted', data: { ...who, purpose: 'unspecified', scope: ['location'], granted_at: t1.toISOString() } },
    ]);
  });

  it('revokes a granted consent, keeping the purpose and scope it had', () => {
    const events = history([grant('fleet_dispatch'), t1]);
    expect(given(events).when(revoke, t2).events).toEqual([{ type: 'ConsentRevoked', data: { ...who, revoked_at: t2.toISOString() } }]);
    expect(given(history([grant('fleet_dispatch'), t1], [revoke, t2])).state).toEqual({
      status: 'revoked',
      purpose: 'fleet_dispatch',
      scope: ['location'],
      granted_at: t1.toISOString(),
      revoked_at: t2.toISOString(),
    });
  });

  it('grants again after a revoke: grant → revoke → grant is granted with the new purpose', () => {
    const events = history([grant('fleet_dispatch'), t1], [revoke, t2], [grant('loan_collections'), t3]);
    expect(events.map((event) => event.type)).toEqual(['ConsentGranted', 'ConsentRevoked', 'ConsentGranted']);
    expect(given(events).state).toEqual({ status: 'granted', purpose: 'loan_collections', scope: ['location'], granted_at: t3.toISOString() });
  });

  it('replaces purpose and scope when granting while granted', () => {
    const events = history([grant('unspecified'), t1], [grant('fleet_dispatch', ['location', 'device']), t2]);
    expect(given(events).state).toEqual({ status: 'granted', purpose: 'fleet_dispatch', scope: ['location', 'device'], granted_at: t2.toISOString() });
  });

  it('records nothing for a grant identical to the standing one (a retried or concurrent request)', () => {
    const granted = history([grant('fleet_dispatch', ['location', 'device']), t1]);
    const again = given(granted).when(grant('fleet_dispatch', ['location', 'device']), t2);
    expect(again.events).toEqual([]);
    expect(again.state).toMatchObject({ status: 'granted', granted_at: t1.toISOString() });
    expect(given(granted).when(grant('fleet_dispatch', ['device', 'location']), t2).events).toHaveLength(1);
    expect(given(granted).when(grant('loan_collections', ['location', 'device']), t2).events).toHaveLength(1);
  });

  it('refuses to revoke a consent never granted or already revoked', () => {
    expect(given([]).when(revoke, t1).error).toBeInstanceOf(ConsentNotGrantedError);
    expect(given(history([grant('unspecified'), t1], [revoke, t2])).when(revoke, t3).error).toBeInstanceOf(ConsentNotGrantedError);
  });

  it('allows data deletion only once revoked', () => {
    expect(() => assertDataDeletable(given([]).state, 'cust-42')).toThrow(ConsentNotRevokedError);
    expect(() => assertDataDeletable(given(history(grant('unspecified'))).state, 'cust-42')).toThrow(ConsentNotRevokedError);
    expect(assertDataDeletable(given(history(grant('unspecified'), revoke)).state, 'cust-42')).toMatchObject({ status: 'revoked' });
    expect(() => assertDataDeletable(given(history(grant('unspecified'), revoke, grant('unspecified'))).state, 'cust-42')).toThrow(ConsentNotRevokedError);
    expect(given(history(grant('unspecified'))).when(erase(3)).error).toBeInstanceOf(ConsentNotRevokedError);
  });

  it('records an erasure once per revoke: a repeat answers the first record', () => {
    const revoked = history([grant('unspecified'), t1], [revoke, t2]);
    const first = given(revoked).when(erase(7), t3);
    expect(first.events).toEqual([
      { type: 'CustomerDataErased', data: { ...who, erased_by: 'key_abc', events_erased: 7, erased_at: t3.toISOString(), pseudonym: 'p-42' } },
    ]);
    const repeat = given([...revoked, ...first.events]).when(erase(0), new Date('2026-11-22T11:00:00.000Z'));
    expect(repeat.events).toEqual([]);
    expect(repeat.state).toMatchObject({ status: 'revoked', erased: { at: t3.toISOString(), events_erased: 7 } });
    // A new grant and revoke start a new history, which is erased on its own.
    const later = [...revoked, ...first.events, ...history([grant('unspecified'), t3], [revoke, t3])];
    expect(given(later).state).not.toHaveProperty('erased');
    expect(given(later).when(erase(2)).events).toHaveLength(1);
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

describe('consent decider: sealed consent records (docs/adr/0032, "Listing")', () => {
  const seal = { pseudonym: 'p-42', customer_sealed: { key_id: 'k-1', sealed: 'v1.x' } };
  const sealRecord = (extra: Partial<Extract<ConsentCommand, { type: 'SealConsentRecord' }>> = {}): ConsentCommand => ({ type: 'SealConsentRecord', ...who, consent_id: 'cr_legacy_1', seal, ...extra });

  it('carries the pseudonym and the sealed id on a grant and the pseudonym on a revoke; a sealed record needs no backfill', () => {
    const events = history([{ ...grant('fleet_dispatch'), seal } as ConsentCommand, t1], [{ ...revoke, pseudonym: 'p-42' } as ConsentCommand, t2]);
    expect(events[0].data).toMatchObject(seal);
    expect(events[1].data).toMatchObject({ pseudonym: 'p-42' });
    expect(given(events).when(sealRecord(), t3).events).toEqual([]);
  });

  it('restates a legacy record once, revoked and erased as it stands', () => {
    const legacy = history([grant('fleet_dispatch'), t1], [revoke, t2], [erase(3), t3]);
    const [sealed] = given(legacy).when(sealRecord({ seal: { pseudonym: 'p-42', customer_sealed: null } }), t3).events;
    expect(sealed).toEqual({
      type: 'ConsentRecordSealed',
      data: {
        ...who,
        sealed_at: t3.toISOString(),
        record: { consent_id: 'cr_legacy_1', purpose: 'fleet_dispatch', scope: ['location'], granted_at: t1.toISOString(), revoked_at: t2.toISOString(), erased_at: t3.toISOString() },
        pseudonym: 'p-42',
        customer_sealed: null,
      },
    });
    expect(given([...legacy, sealed]).when(sealRecord(), t3).events).toEqual([]);
    expect(given([]).when(sealRecord(), t3).events).toEqual([]);
  });
});
