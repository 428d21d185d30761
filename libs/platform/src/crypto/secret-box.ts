import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes, randomFillSync } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { link, mkdir, open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';

/**
 * Authenticated encryption of secrets at rest (decisions.md, "Secrets at rest
 * (webhook secrets) are encrypted with a key from DATA_ENCRYPTION_KEY, or one
 * generated into DATA_DIR on first start"): AES-256-GCM, a random 96-bit IV per
 * seal, a 128-bit tag.
 *
 * Sealed format, one ASCII string safe in JSON, URLs and file names:
 *
 *   v1.<kid>.<iv>.<tag>.<ciphertext>        every part base64url without padding
 *
 * `v1` names the algorithm (AES-256-GCM, 12-byte IV, 16-byte tag); `kid` is the
 * first 8 bytes of SHA-256 of the key, so a value sealed under another key is
 * reported as such rather than as tampering, and a later rotation can keep old
 * keys in a key ring and pick the right one by `kid`. The header `v1.<kid>` is
 * part of the authenticated data, so it cannot be edited either. Random IVs
 * stay safe for 2^32 seals per key (NIST SP 800-38D), far beyond what secrets
 * at rest reach.
 */

const VERSION = 'v1';
const ALGORITHM = 'aes-256-gcm';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KID_BYTES = 8;

/** Where the generated key lives, relative to DATA_DIR. */
export const DATA_ENCRYPTION_KEY_FILE = path.join('secrets', 'data-encryption.key');

export interface SecretBoxConfig {
  /** DATA_ENCRYPTION_KEY: 32 bytes as base64 (standard or url-safe) or as 64 hex digits. */
  dataEncryptionKey?: string;
  /** DATA_DIR: without an explicit key, the key is read from (or generated into) `<dataDir>/secrets/data-encryption.key`. */
  dataDir: string;
}

/** A configured or stored key that is not 32 bytes of base64 or hex. Never carries the key itself. */
export class InvalidEncryptionKeyError extends Error {
  readonly code = 'INVALID_ENCRYPTION_KEY';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidEncryptionKeyError';
  }
}

export type SealedSecretProblem =
  /** Not a `v1.…` string with five well-formed parts. */
  | 'malformed'
  /** A format version this code does not know. */
  | 'unsupported-version'
  /** Sealed under another key (the key changed, or the data came from elsewhere). */
  | 'unknown-key'
  /** The tag does not verify: ciphertext, IV, tag or associated data were altered. */
  | 'authentication-failed';

/** A sealed value that cannot be opened. The message never includes the sealed value or the plaintext. */
export class SealedSecretError extends Error {
  readonly code = 'SEALED_SECRET_INVALID';
  constructor(readonly problem: SealedSecretProblem, message: string) {
    super(message);
    this.name = 'SealedSecretError';
  }
}

/**
 * IVs are cut from a block of random bytes filled 4 KiB at a time (docs/adr/0044): one call into the CSPRNG per
 * 341 seals instead of one per seal, which was most of a seal's time on the ping path. Every IV is still 12 fresh
 * random bytes used once; the block is never reused (a new one is allocated when it runs out).
 */
const IV_BLOCK_BYTES = 4096;
let ivBlock = Buffer.alloc(0);
let ivAt = 0;

function freshIv(): Buffer {
  if (ivAt + IV_BYTES > ivBlock.length) {
    ivBlock = randomFillSync(Buffer.allocUnsafeSlow(IV_BLOCK_BYTES));
    ivAt = 0;
  }
  const iv = ivBlock.subarray(ivAt, ivAt + IV_BYTES);
  ivAt += IV_BYTES;
  return iv;
}

export class SecretBox {
  private readonly kid: string;

  private constructor(private readonly key: Buffer) {
    this.kid = keyId(key);
  }

  /** A box over a 32-byte key. */
  static fromKey(key: Uint8Array): SecretBox {
    if (key.length !== KEY_BYTES) {
      throw new InvalidEncryptionKeyError(`An encryption key must be ${KEY_BYTES} bytes, got ${key.length}`);
    }
    return new SecretBox(Buffer.from(key));
  }

  /**
   * The box of this deployment: DATA_ENCRYPTION_KEY when set, otherwise the key
   * file under DATA_DIR, generated on first start. A key given but unusable is
   * refused, never silently replaced by a generated one: data sealed under the
   * intended key would become unreadable.
   */
  static async fromConfig(config: SecretBoxConfig): Promise<SecretBox> {
    if (config.dataEncryptionKey !== undefined && config.dataEncryptionKey.trim() !== '') {
      return SecretBox.fromKey(parseKey(config.dataEncryptionKey, 'DATA_ENCRYPTION_KEY'));
    }
    return SecretBox.fromKey(await loadOrCreateKeyFile(path.join(config.dataDir, DATA_ENCRYPTION_KEY_FILE)));
  }

  /** Encrypts; `aad` (associated data, e.g. the record id) is authenticated but not stored, and must be given again to open. */
  seal(plaintext: string | Uint8Array, aad?: string | Uint8Array): string {
    const iv = freshIv();
    const cipher = createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(associatedData(VERSION, this.kid, aad));
    const data = typeof plaintext === 'string' ? Buffer.from(plaintext, 'utf8') : plaintext;
    const ciphertext = Buffer.concat([cipher.update(data), cipher.final()]);
    const tag = cipher.getAuthTag();
    return [VERSION, this.kid, b64url(iv), b64url(tag), b64url(ciphertext)].join('.');
  }

  /**
   * A 32-byte key for another purpose, derived from this box's key
   * (HKDF-SHA256, `purpose` as info): keyed hashes that every process holding
   * DATA_ENCRYPTION_KEY computes alike, without a second secret to distribute.
   * Different purposes give unrelated keys, and none reveals the box's key.
   */
  deriveKey(purpose: string): Buffer {
    if (purpose.length === 0) throw new TypeError('a derived key needs a purpose');
    return Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), `location-api:${purpose}`, KEY_BYTES));
  }

  /** Decrypts a value sealed as UTF-8 text; throws `SealedSecretError` if it was altered or the aad differs. */
  open(sealed: string, aad?: string | Uint8Array): string {
    return this.openBytes(sealed, aad).toString('utf8');
  }

  /** Decrypts to bytes; throws `SealedSecretError` if it was altered or the aad differs. */
  openBytes(sealed: string, aad?: string | Uint8Array): Buffer {
    const parts = typeof sealed === 'string' ? sealed.split('.') : [];
    if (parts.length !== 5) throw new SealedSecretError('malformed', 'Sealed secret is malformed');
    const [version, kid, ivPart, tagPart, ciphertextPart] = parts;
    if (version !== VERSION) {
      throw new SealedSecretError('unsupported-version', `Sealed secret has unsupported format version "${version.slice(0, 8)}"`);
    }
    const iv = fromB64url(ivPart);
    const tag = fromB64url(tagPart);
    const ciphertext = fromB64url(ciphertextPart);
    if (!iv || iv.length !== IV_BYTES || !tag || tag.length !== TAG_BYTES || !ciphertext || !B64URL.test(kid)) {
      throw new SealedSecretError('malformed', 'Sealed secret is malformed');
    }
    if (kid !== this.kid) {
      throw new SealedSecretError('unknown-key', 'Sealed secret was sealed under a different key than DATA_ENCRYPTION_KEY');
    }
    const decipher = createDecipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(associatedData(version, kid, aad));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
    } catch {
      throw new SealedSecretError('authentication-failed', 'Sealed secret failed authentication: it was altered or the associated data differs');
    }
  }
}

// ── keys ───────────────────────────────────────────────────────────────

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
const BASE64_KEY = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** 64 hex digits, or base64 / base64url (padding optional) of exactly 32 bytes. */
function parseKey(text: string, source: string): Buffer {
  const value = text.trim();
  if (HEX_KEY.test(value)) return Buffer.from(value, 'hex');
  if (BASE64_KEY.test(value)) {
    const standard = value.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
    const bytes = Buffer.from(standard, 'base64');
    // Node's decoder skips what it cannot read; re-encoding proves every character counted.
    if (bytes.length === KEY_BYTES && bytes.toString('base64').replace(/=+$/, '') === standard) return bytes;
  }
  throw new InvalidEncryptionKeyError(
    `${source} must be ${KEY_BYTES} bytes encoded as base64 (44 characters) or hex (64 characters); ` +
      `generate one with: node -e "console.log(require('crypto').randomBytes(32).toString('base64'))"`,
  );
}

/**
 * Reads the key file, or creates it. Creation never overwrites: the key is
 * written to a private temp file, synced, then hard-linked to the final name,
 * which fails with EEXIST when another process got there first (rename would
 * silently replace the winner's key, and anything it had sealed would be lost).
 * The loser drops its temp file and reads the winner's key.
 */
async function loadOrCreateKeyFile(file: string): Promise<Buffer> {
  const existing = await readKeyFile(file);
  if (existing) return existing;

  const dir = path.dirname(file);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL, 0o600);
    try {
      // The mode given to open is masked by the umask; 0600 must hold whatever it is.
      await handle.chmod(0o600);
      await handle.writeFile(`${randomBytes(KEY_BYTES).toString('base64')}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await link(temp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    await syncDir(dir);
  } finally {
    await unlink(temp).catch(() => undefined);
  }

  const created = await readKeyFile(file);
  if (!created) throw new Error(`Encryption key file ${file} vanished right after it was created`);
  return created;
}

async function readKeyFile(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parseKey(text, `Encryption key file ${file}`);
}

/** Makes the new directory entry durable (a crash right after start must not lose the key). */
async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, fsConstants.O_RDONLY).catch(() => undefined);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on directories; the file itself is synced.
  } finally {
    await handle.close();
  }
}

// ── encoding ───────────────────────────────────────────────────────────

const B64URL = /^[A-Za-z0-9_-]*$/;

function b64url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

function fromB64url(text: string): Buffer | undefined {
  if (!B64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

function keyId(key: Buffer): string {
  return b64url(createHash('sha256').update(key).digest().subarray(0, KID_BYTES));
}

/** The header and the caller's aad, length-prefixed so no two (header, aad) pairs encode alike. */
function associatedData(version: string, kid: string, aad: string | Uint8Array | undefined): Buffer {
  const header = Buffer.from(`${version}.${kid}`, 'ascii');
  const extra = aad === undefined ? Buffer.alloc(0) : typeof aad === 'string' ? Buffer.from(aad, 'utf8') : Buffer.from(aad);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(header.length);
  return Buffer.concat([length, header, extra]);
}
