import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { link, mkdir, open, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { SecretBox } from '../secret-box.js';
import type { DataKey, DataKeyVault } from './data-key-vault.port.js';
import { subjectHash } from './subject-hash.js';

const KEY_BYTES = 32;
/** Unwrapped keys kept in memory; past this many the cache starts afresh. */
const CACHE_LIMIT = 50_000;
/** Another process may destroy a key: a cached one is trusted this long (ms). */
const CACHE_TTL_MS = 30_000;

interface KeyFile {
  id: string;
  /** The data key sealed with the platform SecretBox, bound to the file name. */
  wrapped: string;
}

/**
 * One small file per key in `<dataDir>/data-keys/`, named by the subject's
 * hash. Creation is atomic and race-free across processes (write a temporary
 * file, fsync, `link` it into place: `link` fails when the name exists, and the
 * loser reads the winner's key). Destruction overwrites the file's bytes with
 * random data and fsyncs before unlinking, so the key is not left in a freed
 * block of the file system (as far as the file system writes in place; see
 * ADR 12 for copy-on-write file systems and SSDs).
 */
export class EmbeddedDataKeyVault implements DataKeyVault {
  private readonly cache = new Map<string, { key: DataKey; until: number }>();

  private constructor(
    private readonly dir: string,
    private readonly box: SecretBox,
  ) {}

  static async open(dataDir: string, box: SecretBox): Promise<EmbeddedDataKeyVault> {
    const dir = path.join(dataDir, 'data-keys');
    await mkdir(dir, { recursive: true, mode: 0o700 });
    return new EmbeddedDataKeyVault(dir, box);
  }

  async obtain(subject: string): Promise<DataKey> {
    const name = subjectHash(subject);
    const cached = this.cached(name);
    if (cached) return cached;
    const existing = await this.read(name);
    if (existing) return this.remember(name, existing);
    const created: DataKey = { id: randomBytes(12).toString('base64url'), key: randomBytes(KEY_BYTES) };
    const winner = (await this.create(name, created)) ?? created;
    return this.remember(name, winner);
  }

  async find(subject: string, keyId: string): Promise<DataKey | undefined> {
    const name = subjectHash(subject);
    const key = this.cached(name) ?? (await this.read(name));
    if (!key) return undefined;
    this.remember(name, key);
    return key.id === keyId ? key : undefined;
  }

  async destroy(subject: string): Promise<void> {
    const name = subjectHash(subject);
    this.cache.delete(name);
    const file = this.file(name);
    let handle;
    try {
      handle = await open(file, fsConstants.O_RDWR);
    } catch (error) {
      if (isNotFound(error)) return;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      await handle.write(randomBytes(size), 0, size, 0);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await unlink(file);
    } catch (error) {
      // Another destroy of the same key (concurrent erasure requests) unlinked it first: it is gone either way.
      if (!isNotFound(error)) throw error;
    }
    await this.syncDir();
  }

  async ping(): Promise<void> {
    await this.syncDir();
  }

  async close(): Promise<void> {
    this.cache.clear();
  }

  private remember(name: string, key: DataKey): DataKey {
    if (this.cache.size >= CACHE_LIMIT && !this.cache.has(name)) this.cache.clear();
    this.cache.set(name, { key, until: Date.now() + CACHE_TTL_MS });
    return key;
  }

  private cached(name: string): DataKey | undefined {
    const entry = this.cache.get(name);
    if (!entry || entry.until < Date.now()) return undefined;
    return entry.key;
  }

  private file(name: string): string {
    return path.join(this.dir, `${name}.key`);
  }

  private async read(name: string): Promise<DataKey | undefined> {
    let text: string;
    try {
      text = await readFile(this.file(name), 'utf8');
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    const stored = JSON.parse(text) as KeyFile;
    return { id: stored.id, key: this.box.openBytes(stored.wrapped, name) };
  }

  /** Answers the key that won when another writer created one first, undefined when ours is in place. */
  private async create(name: string, key: DataKey): Promise<DataKey | undefined> {
    const stored: KeyFile = { id: key.id, wrapped: this.box.seal(key.key, name) };
    const temp = path.join(this.dir, `.${name}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(JSON.stringify(stored));
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await link(temp, this.file(name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const winner = await this.read(name);
      if (!winner) throw new Error('a data key vanished right after another writer created it');
      return winner;
    } finally {
      await unlink(temp);
    }
    await this.syncDir();
    return undefined;
  }

  private async syncDir(): Promise<void> {
    const handle = await open(this.dir, fsConstants.O_RDONLY);
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }
}

function isNotFound(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}
