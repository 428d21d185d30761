import { randomBytes } from 'node:crypto';
import { InvalidEncryptionKeyError, SealedSecretError, SecretBox } from './secret-box.js';

const box = SecretBox.fromKey(randomBytes(32));

/** Flips one bit of the decoded bytes of part `index` of a sealed string. */
function flipBit(sealed: string, index: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[index], 'base64url');
  bytes[0] ^= 0x01;
  parts[index] = bytes.toString('base64url');
  return parts.join('.');
}

function problemOf(open: () => unknown): string | undefined {
  try {
    open();
  } catch (error) {
    if (error instanceof SealedSecretError) return error.problem;
    throw error;
  }
  return undefined;
}

describe('SecretBox', () => {
  it('opens what it sealed, strings and bytes, with and without associated data', () => {
    const secret = 'whsec_ünïcødé ✓ 🔑';
    expect(box.open(box.seal(secret))).toBe(secret);
    expect(box.open(box.seal(secret, 'webhook-42'), 'webhook-42')).toBe(secret);
    const bytes = randomBytes(100);
    expect(box.openBytes(box.seal(bytes, Buffer.from([1, 2, 3])), Buffer.from([1, 2, 3]))).toEqual(bytes);
    expect(box.open(box.seal(''))).toBe('');
  });

  it('derives one stable key per purpose, distinct from other purposes and other boxes', () => {
    const key = Buffer.alloc(32, 9);
    const derived = SecretBox.fromKey(key).deriveKey('pseudonyms');
    expect(derived).toHaveLength(32);
    expect(SecretBox.fromKey(key).deriveKey('pseudonyms')).toEqual(derived);
    expect(SecretBox.fromKey(key).deriveKey('other')).not.toEqual(derived);
    expect(SecretBox.fromKey(Buffer.alloc(32, 8)).deriveKey('pseudonyms')).not.toEqual(derived);
    expect(derived.equals(key)).toBe(false);
  });

  it('writes a versioned, url-safe string with a fresh IV each time', () => {
    const a = box.seal('same');
    const b = box.seal('same');
    expect(a).toMatch(/^v1\.[A-Za-z0-9_-]{11}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).toBe(b.split('.')[1]); // same key id
    expect(a).not.toContain('same');
  });

  it('gives every seal its own IV, across the blocks of random bytes the IVs are cut from (341 to a block)', () => {
    const sealed = Array.from({ length: 2_000 }, (_, index) => box.seal(`ping ${index}`));
    const ivs = new Set(sealed.map((value) => value.split('.')[2]));
    expect(ivs.size).toBe(sealed.length);
    sealed.forEach((value, index) => expect(box.open(value)).toBe(`ping ${index}`));
  });

  it('detects a change to the IV, the tag or the ciphertext', () => {
    const sealed = box.seal('the webhook secret');
    for (const part of [2, 3, 4]) {
      expect(problemOf(() => box.open(flipBit(sealed, part)))).toBe('authentication-failed');
    }
  });

  it('refuses the wrong associated data, or none where some was given', () => {
    const sealed = box.seal('secret', 'webhook-1');
    expect(problemOf(() => box.open(sealed, 'webhook-2'))).toBe('authentication-failed');
    expect(problemOf(() => box.open(sealed))).toBe('authentication-failed');
    expect(problemOf(() => box.open(box.seal('secret'), 'webhook-1'))).toBe('authentication-failed');
  });

  it('tells a value sealed under another key from tampering', () => {
    const other = SecretBox.fromKey(randomBytes(32));
    expect(problemOf(() => box.open(other.seal('secret')))).toBe('unknown-key');
    // Forging the key id does not help: the header is authenticated.
    const forged = other.seal('secret').split('.');
    forged[1] = box.seal('x').split('.')[1];
    expect(problemOf(() => box.open(forged.join('.')))).toBe('authentication-failed');
  });

  it('reports malformed input and unknown versions without echoing it', () => {
    const sealed = box.seal('secret');
    for (const bad of ['', 'not sealed', sealed.replace(/\.[^.]+$/, ''), `${sealed}.extra`, sealed.replace(/\.([^.]+)$/, '.!!!')]) {
      expect(problemOf(() => box.open(bad))).toBe('malformed');
    }
    let message = '';
    try {
      box.open(sealed.replace(/^v1/, 'v9'));
    } catch (error) {
      expect(error).toBeInstanceOf(SealedSecretError);
      expect((error as SealedSecretError).problem).toBe('unsupported-version');
      message = (error as Error).message;
    }
    expect(message).not.toContain(sealed.split('.')[4]);
  });

  describe('DATA_ENCRYPTION_KEY', () => {
    const key = randomBytes(32);

    it('accepts 32 bytes as base64, base64url (padded or not) or hex', async () => {
      const sealed = SecretBox.fromKey(key).seal('secret');
      for (const text of [
        key.toString('base64'),
        key.toString('base64url'),
        `${key.toString('base64url')}=`,
        key.toString('hex'),
        key.toString('hex').toUpperCase(),
        `  ${key.toString('base64')}\n`,
      ]) {
        const fromEnv = await SecretBox.fromConfig({ dataEncryptionKey: text, dataDir: '/nonexistent' });
        expect(fromEnv.open(sealed)).toBe('secret');
      }
    });

    it('refuses anything else with an error naming the variable, not the value', async () => {
      const wrong = [
        'secret',
        randomBytes(16).toString('base64'),
        randomBytes(31).toString('base64'),
        randomBytes(33).toString('base64'),
        randomBytes(32).toString('hex').slice(0, 63),
        `${key.toString('base64').slice(0, 40)}!!!=`,
        `${key.toString('base64')}AA`,
      ];
      for (const text of wrong) {
        const attempt = SecretBox.fromConfig({ dataEncryptionKey: text, dataDir: '/nonexistent' });
        await expect(attempt).rejects.toBeInstanceOf(InvalidEncryptionKeyError);
        await expect(attempt).rejects.toThrow(/DATA_ENCRYPTION_KEY must be 32 bytes/);
        await attempt.catch((error: Error) => expect(error.message).not.toContain(text));
      }
    });
  });
});
