import { deciderSpec } from '../../../platform/src/testing/decider-spec.js';
import { needsCandidate, signingKeysDecider, type NewSigningKey, type SigningKeyEvent } from './signing-keys.js';

const key = (kid: string): NewSigningKey => ({ kid, public_jwk: { kty: 'OKP', crv: 'Ed25519', x: `x-${kid}` }, sealed_private_key: `v1.sealed.${kid}` });
const at = new Date('2026-11-23T10:00:00.000Z');
const later = new Date('2026-12-01T08:00:00.000Z');
const spec = deciderSpec(signingKeysDecider, at);

describe('signing keys decider', () => {
  it('generates the first key on first start; it is the active one', () => {
    const { events, state } = spec.given([]).when({ type: 'EnsureSigningKey', candidate: key('k1') });
    expect(events).toEqual([{ type: 'SigningKeyGenerated', data: { ...key('k1'), generated_at: at.toISOString(), reason: 'first_start' } }]);
    expect(state).toMatchObject({ active_kid: 'k1', keys: [{ kid: 'k1', retired_at: null }] });
  });

  it('a start that finds a key records nothing: concurrent first starts converge on one key', () => {
    const history = spec.history({ type: 'EnsureSigningKey', candidate: key('k1') });
    expect(needsCandidate({ type: 'EnsureSigningKey' }, spec.given(history).state)).toBe(false);
    expect(spec.given(history).when({ type: 'EnsureSigningKey', candidate: key('k2') }).events).toEqual([]);
    expect(spec.given(history).when({ type: 'EnsureSigningKey' }).events).toEqual([]);
  });

  it('rotation is an event: the new key signs, the old one retires and is kept', () => {
    const history = spec.history({ type: 'EnsureSigningKey', candidate: key('k1') });
    const { events, state } = spec.given(history).when({ type: 'RotateSigningKeys', rotated_by: 'admin:abc…', candidate: key('k2') }, later);
    expect(events).toEqual([
      { type: 'SigningKeyGenerated', data: { ...key('k2'), generated_at: later.toISOString(), reason: 'rotation' } },
      { type: 'SigningKeyRotated', data: { from_kid: 'k1', to_kid: 'k2', rotated_at: later.toISOString(), rotated_by: 'admin:abc…' } },
    ]);
    expect(state.active_kid).toBe('k2');
    expect(state.keys.map(({ kid, retired_at }) => ({ kid, retired_at }))).toEqual([
      { kid: 'k1', retired_at: later.toISOString() },
      { kid: 'k2', retired_at: null },
    ]);
  });

  it('rotating before any key exists generates one and retires none; every rotation needs a new key', () => {
    const { events } = spec.given([]).when({ type: 'RotateSigningKeys', rotated_by: 'ops:cli', candidate: key('k1') });
    expect(events.map((event: SigningKeyEvent) => event.type)).toEqual(['SigningKeyGenerated']);
    expect(needsCandidate({ type: 'RotateSigningKeys', rotated_by: 'ops:cli' }, spec.given(events).state)).toBe(true);
  });

  it('refuses a command without its candidate key, and a kid used before', () => {
    expect(spec.given([]).when({ type: 'EnsureSigningKey' }).error).toEqual(new Error('EnsureSigningKey needs a candidate key'));
    const history = spec.history({ type: 'EnsureSigningKey', candidate: key('k1') });
    expect(spec.given(history).when({ type: 'RotateSigningKeys', rotated_by: 'ops:cli', candidate: key('k1') }).error).toEqual(new Error('key k1 exists already'));
  });
});
