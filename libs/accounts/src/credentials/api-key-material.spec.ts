import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import {
  constantTimeEqual,
  generateApiKey,
  generateResetToken,
  generateUserToken,
  hashKey,
  hashResetToken,
  isWellFormedResetToken,
  keyPrefix,
  newApiKey,
} from './api-key-material.js';
import { keyIdFor } from '../domain/api-key.js';

describe('API keys and user tokens', () => {
  it('are 32 random bytes as 64 lowercase hex characters, different every time', () => {
    const keys = Array.from({ length: 50 }, generateApiKey);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(new Set(keys).size).toBe(keys.length);
    expect(generateUserToken()).toMatch(/^[0-9a-f]{64}$/);
    expect(generateUserToken()).not.toBe(generateUserToken());
  });

  it('are stored as the SHA-256 of their text in lowercase hex', () => {
    const key = generateApiKey();
    expect(hashKey(key)).toBe(createHash('sha256').update(key).digest('hex'));
    expect(hashKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashKey(key)).not.toBe(hashKey(generateApiKey()));
  });

  it('have an id derived from their hash: a version 8 UUID, the same for the same hash, another for another (ADR 0057)', () => {
    const { key, hash, keyId } = newApiKey();
    expect(hash).toBe(hashKey(key));
    expect(keyId).toBe(keyIdFor(hash));
    expect(keyId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // SHA-256 of the name space and the hash, its first 128 bits with the version and variant bits set.
    const digest = createHash('sha256').update('location-api key id v1\0').update(hash).digest('hex');
    expect(keyId.replace(/-/g, '').slice(0, 12)).toBe(digest.slice(0, 12));
    expect(keyId.replace(/-/g, '').slice(20)).toBe(digest.slice(20, 32));
    expect(keyIdFor(hashKey(generateApiKey()))).not.toBe(keyId);
    expect(keyId).not.toContain(hash.slice(0, 12));
  });

  it('show their first 8 characters and an ellipsis', () => {
    expect(keyPrefix('0123456789abcdef')).toBe('01234567…');
    const key = generateApiKey();
    expect(keyPrefix(key)).toBe(`${key.slice(0, 8)}\u2026`);
  });
});

describe('constantTimeEqual', () => {
  it('is true only for equal strings, whatever their lengths', () => {
    const digest = hashKey('k');
    expect(constantTimeEqual(digest, hashKey('k'))).toBe(true);
    expect(constantTimeEqual(digest, hashKey('j'))).toBe(false);
    expect(constantTimeEqual(digest, digest.slice(0, 63))).toBe(false);
    expect(constantTimeEqual(digest, `${digest}0`)).toBe(false);
    expect(constantTimeEqual('', '')).toBe(true);
    expect(constantTimeEqual('', 'a')).toBe(false);
  });
});

describe('password-reset tokens', () => {
  it('are 32 random bytes as unpadded base64url, different every time', () => {
    const tokens = Array.from({ length: 50 }, generateResetToken);
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
      expect(isWellFormedResetToken(token)).toBe(true);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('are stored as their SHA-256 in lowercase hex', () => {
    const token = generateResetToken();
    expect(hashResetToken(token)).toBe(createHash('sha256').update(token).digest('hex'));
  });

  it.each([
    ['a 42-character string', 'A'.repeat(42)],
    ['a 44-character string', 'A'.repeat(44)],
    ['padding', `${'A'.repeat(42)}=`],
    ['standard base64 characters', `${'A'.repeat(41)}+A`],
    ['a last character that would carry bits past 32 bytes', `${'A'.repeat(42)}B`],
    ['an API key', generateApiKey()],
    ['a number', 42],
    ['nothing', undefined],
  ])('refuses %s as a reset token', (_, token) => {
    expect(isWellFormedResetToken(token)).toBe(false);
  });
});
