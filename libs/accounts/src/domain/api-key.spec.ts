import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { apiKeyDecider, isUsable, KeyAlreadyIssuedError, KeyNotActiveError, type ApiKeyIssued } from './api-key.js';

const now = new Date('2026-11-22T10:00:00.000Z');
const issued: Omit<ApiKeyIssued['data'], 'issued_at'> = {
  key_id: 'k1',
  key_hash: 'h'.repeat(64),
  key_prefix: 'abcdef12…',
  kind: 'account',
  account_id: 'acct_1',
  name: 'Ama',
  email: 'ama@example.com',
  tier: 'free',
  expires_at: null,
  rotated_from: null,
};
const { given, history } = deciderSpec(apiKeyDecider, now);
const issue = (data = issued) => ({ type: 'IssueApiKey' as const, data });
const revoke = (reason: 'rotated' | 'deleted' | 'operator' = 'deleted', replaced_by: string | null = null) => ({ type: 'RevokeApiKey' as const, data: { key_id: 'k1', reason, replaced_by } });

describe('API key decider', () => {
  it('given nothing, issuing gives an active key stamped with the time', () => {
    const { events, state } = given([]).when(issue());
    expect(events).toEqual([{ type: 'ApiKeyIssued', data: { ...issued, issued_at: now.toISOString() } }]);
    expect(state.status).toBe('active');
    expect(isUsable(state, now)).toBe(true);
  });

  it('refuses to issue a key id twice', () => {
    expect(given(history(issue())).when(issue()).error).toBeInstanceOf(KeyAlreadyIssuedError);
  });

  it('given an active key, revoking makes it unusable and records why and by what it was replaced', () => {
    const { events, state } = given(history(issue())).when(revoke('rotated', 'k2'));
    expect(events).toEqual([{ type: 'ApiKeyRevoked', data: { key_id: 'k1', reason: 'rotated', replaced_by: 'k2', revoked_at: now.toISOString() } }]);
    expect(state.status).toBe('revoked');
    expect(isUsable(state, now)).toBe(false);
  });

  it('given a revoked key, a second revocation is the 409 CONCURRENCY_CONFLICT (another request got there first)', () => {
    const { error } = given(history(issue(), revoke('rotated', 'k2'))).when(revoke());
    expect(error).toBeInstanceOf(KeyNotActiveError);
    expect(error).toMatchObject({ code: 'CONCURRENCY_CONFLICT', status: 409 });
  });

  it('refuses to revoke a key that was never issued', () => {
    expect(given([]).when(revoke()).error).toBeInstanceOf(KeyNotActiveError);
  });

  it('treats an expired key as unusable', () => {
    const { state } = given(history(issue({ ...issued, expires_at: '2026-11-22T09:59:59.000Z' })));
    expect(isUsable(state, now)).toBe(false);
    expect(isUsable(state, new Date('2026-11-22T09:00:00.000Z'))).toBe(true);
  });
});
