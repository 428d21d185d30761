import { createHash, randomBytes } from 'node:crypto';
import { secretsEqual } from '../authentication/constant-time.js';
import { keyIdFor } from '../domain/api-key.js';

/**
 * Secrets the service hands out: API keys, per-user tokens and password-reset
 * tokens. Each is 32 bytes from the CSPRNG (256 bits), is shown to its holder
 * once, and is stored only as its SHA-256 digest.
 *
 * A fast hash is right here, unlike for passwords: nobody chose these values,
 * so there is no dictionary to try and 2^256 candidates to search; a slow hash
 * would buy nothing against a stolen table and would cost every request. An
 * unsalted digest also lets the key directory find a key by its hash in one
 * lookup, and a lookup by digest leaks nothing useful through its timing.
 */
const SECRET_BYTES = 32;

/** interface.md, "API key record": the key is hex text. 64 lowercase hex characters. */
export function generateApiKey(): string {
  return randomBytes(SECRET_BYTES).toString('hex');
}

/**
 * A per-user token (POST /v2/auth/login, /v2/auth/google/mobile) "is an
 * X-API-Key value scoped to one user" (interface.md, "Authentication" 4), so it
 * has a key's shape and is stored and looked up like one (`hashKey`); what ties
 * it to its user is the record stored with it.
 */
export function generateUserToken(): string {
  return generateApiKey();
}

/** SHA-256 of the key text, lowercase hex: what is stored and looked up. Also for user tokens. */
export function hashKey(key: string): string {
  return sha256Hex(key);
}

/** A fresh key with what is stored of it: its hash and the id derived from that (`keyIdFor`, docs/adr/0057). */
export function newApiKey(): { key: string; hash: string; keyId: string } {
  const key = generateApiKey();
  const hash = hashKey(key);
  return { key, hash, keyId: keyIdFor(hash) };
}

/** The part of a key that may be shown, logged and audited: the first 8 characters and an ellipsis. */
export function keyPrefix(key: string): string {
  return `${key.slice(0, 8)}…`;
}

/** Compares two secrets (or their digests) in time that depends on neither where they differ nor their lengths. */
export function constantTimeEqual(a: string, b: string): boolean {
  return secretsEqual(a, b);
}

/**
 * A password-reset token (interface.md, "Authentication" 5: one-time, stored
 * hashed, valid 30 minutes): 32 random bytes as base64url without padding
 * (43 characters), compact in an emailed link.
 */
export function generateResetToken(): string {
  return randomBytes(SECRET_BYTES).toString('base64url');
}

/** What is stored for a reset token and looked up when it comes back: SHA-256, lowercase hex. */
export function hashResetToken(token: string): string {
  return sha256Hex(token);
}

/** Whether `token` has the shape `generateResetToken` makes: refuse anything else before looking it up. */
export function isWellFormedResetToken(token: unknown): token is string {
  return typeof token === 'string' && RESET_TOKEN.test(token);
}

/** 32 bytes in unpadded base64url: 42 free characters, then one whose low 2 bits are zero. */
const RESET_TOKEN = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
