import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { EmbeddedEventStore } from '../event-store/embedded/embedded-event-store.js';
import { checkKeyFingerprint, EncryptionKeyMismatchError, KEY_FINGERPRINT_STREAM, keyFingerprint } from './key-fingerprint.js';
import { SecretBox } from './secret-box.js';

describe('the data-encryption key fingerprint', () => {
  it('is recorded by the first process, accepted for the same key and refused, naming DATA_ENCRYPTION_KEY, for another', async () => {
    const events = await EmbeddedEventStore.open(path.join(mkdtempSync(path.join(tmpdir(), 'key-fingerprint-')), 'events'));
    try {
      const key = randomBytes(32);
      const box = SecretBox.fromKey(key);
      await checkKeyFingerprint(events, box, 'first');
      const [recorded] = await events.readStream(KEY_FINGERPRINT_STREAM);
      expect(recorded!.data.fingerprint).toBe(keyFingerprint(box));
      // Never the key, in any encoding.
      const stored = JSON.stringify(recorded!.data);
      for (const encoding of ['hex', 'base64', 'base64url'] as const) expect(stored).not.toContain(key.toString(encoding).slice(0, 16));

      await checkKeyFingerprint(events, SecretBox.fromKey(Buffer.from(key)), 'second');
      const other = checkKeyFingerprint(events, SecretBox.fromKey(randomBytes(32)), 'third');
      await expect(other).rejects.toBeInstanceOf(EncryptionKeyMismatchError);
      await expect(other).rejects.toThrow(/DATA_ENCRYPTION_KEY/);
      expect(await events.readStream(KEY_FINGERPRINT_STREAM)).toHaveLength(1);
    } finally {
      await events.close();
    }
  });

  it('lets concurrent first processes agree on one fingerprint', async () => {
    const events = await EmbeddedEventStore.open(path.join(mkdtempSync(path.join(tmpdir(), 'key-fingerprint-')), 'events'));
    try {
      const key = randomBytes(32);
      await Promise.all(Array.from({ length: 4 }, (_, i) => checkKeyFingerprint(events, SecretBox.fromKey(key), `p${i}`)));
      expect(await events.readStream(KEY_FINGERPRINT_STREAM)).toHaveLength(1);
    } finally {
      await events.close();
    }
  });
});
