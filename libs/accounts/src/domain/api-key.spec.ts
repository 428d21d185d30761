import { decideApiKey, evolveApiKey, initialApiKeyState, isUsable, KeyNotActiveError, type ApiKeyEvent, type ApiKeyIssued } from './api-key.js';

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
const replay = (events: ApiKeyEvent[]) => events.reduce(evolveApiKey, initialApiKeyState);

describe('API key decider', () => {
  it('given nothing, issuing gives an active key stamped with the time', () => {
    const events = decideApiKey({ type: 'IssueApiKey', data: issued, now }, initialApiKeyState);
    expect(events).toEqual([{ type: 'ApiKeyIssued', data: { ...issued, issued_at: now.toISOString() } }]);
    expect(replay(events).status).toBe('active');
  });

  it('given an active key, revoking makes it unusable, and a second revocation is refused', () => {
    const active = replay(decideApiKey({ type: 'IssueApiKey', data: issued, now }, initialApiKeyState));
    const revoked = decideApiKey({ type: 'RevokeApiKey', data: { key_id: 'k1', reason: 'rotated', replaced_by: 'k2' }, now }, active);
    const state = replay([...decideApiKey({ type: 'IssueApiKey', data: issued, now }, initialApiKeyState), ...revoked]);
    expect(state.status).toBe('revoked');
    expect(isUsable(state, now)).toBe(false);
    expect(() => decideApiKey({ type: 'RevokeApiKey', data: { key_id: 'k1', reason: 'deleted', replaced_by: null }, now }, state)).toThrow(KeyNotActiveError);
  });

  it('treats an expired key as unusable', () => {
    const state = replay(decideApiKey({ type: 'IssueApiKey', data: { ...issued, expires_at: '2026-11-22T09:59:59.000Z' }, now }, initialApiKeyState));
    expect(isUsable(state, now)).toBe(false);
    expect(isUsable(state, new Date('2026-11-22T09:00:00.000Z'))).toBe(true);
  });
});
