import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { DataKeyVault } from '../../platform/src/index.js';
import { formatShareCode, normaliseShareCode, SHARE_CODE_RANDOM_BYTES } from './domain/share-code.js';

/**
 * Vault subject of the share-code digest key. Account ids are `acct_…` and
 * position keys `locator:acct_…`, so no other subject can take this name.
 */
const DIGEST_KEY_SUBJECT = 'locator:share-code-digest';

/**
 * Share codes are stored only as a keyed digest (HMAC-SHA-256 under a key in
 * the DataKeyVault): the digest names the share's stream, so a redemption is
 * one stream read. A plain hash of a 60-bit code could be reversed by anyone
 * holding a copy of the log (or the Kafka topic) with enough hardware; the
 * keyed one needs the vault too. The vault gives every instance the same key
 * (a file under DATA_DIR, or MongoDB), wrapped with DATA_ENCRYPTION_KEY.
 */
export class ShareCodes {
  private key?: Promise<Buffer>;

  constructor(private readonly vault: DataKeyVault) {}

  /** A new code (display form) and its share id. */
  mint(): { code: string; share_id: string } {
    return { code: formatShareCode(randomBytes(SHARE_CODE_RANDOM_BYTES)), share_id: `shr_${randomUUID().replace(/-/g, '')}` };
  }

  /** The digest of a code as typed: normalised first (400 INVALID_PARAM on a malformed code). */
  async digest(typed: string): Promise<string> {
    const canonical = normaliseShareCode(typed);
    const key = await this.digestKey();
    return createHmac('sha256', key).update(`locator-share-code:${canonical}`, 'utf8').digest('hex');
  }

  private digestKey(): Promise<Buffer> {
    this.key ??= this.vault.obtain(DIGEST_KEY_SUBJECT).then(
      (dataKey) => dataKey.key,
      (error: unknown) => {
        this.key = undefined;
        throw error;
      },
    );
    return this.key;
  }
}
