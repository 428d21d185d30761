import { randomBytes } from 'node:crypto';
import { MongoClient, MongoServerError, type Collection } from 'mongodb';
import type { SecretBox } from '../secret-box.js';
import type { DataKey, DataKeyVault } from './data-key-vault.port.js';
import { subjectHash } from './subject-hash.js';

interface KeyDocument {
  _id: string;
  key_id: string;
  wrapped: string;
  created_at: Date;
}

const DUPLICATE_KEY = 11000;
/** Another process may destroy a key: a cached one is trusted this long (ms). */
const CACHE_TTL_MS = 30_000;

/**
 * Keys in the `data_keys` collection, one document per subject hash, the key
 * wrapped with the platform SecretBox. A unique `_id` makes concurrent
 * creation converge on the first insert. MongoDB keeps deleted documents'
 * bytes until WiredTiger reuses or compacts the space; since the key is
 * wrapped, that residue is only readable together with DATA_ENCRYPTION_KEY
 * (ADR 12).
 */
export class MongoDataKeyVault implements DataKeyVault {
  private readonly cache = new Map<string, { key: DataKey; until: number }>();

  private constructor(
    private readonly client: MongoClient,
    private readonly keys: Collection<KeyDocument>,
    private readonly box: SecretBox,
  ) {}

  static async open(url: string, database: string, box: SecretBox): Promise<MongoDataKeyVault> {
    const client = new MongoClient(url);
    await client.connect();
    return new MongoDataKeyVault(client, client.db(database).collection<KeyDocument>('data_keys'), box);
  }

  async obtain(subject: string): Promise<DataKey> {
    const id = subjectHash(subject);
    const known = this.cached(id) ?? (await this.read(id));
    if (known) return known;
    const created: DataKey = { id: randomBytes(12).toString('base64url'), key: randomBytes(32) };
    try {
      await this.keys.insertOne({ _id: id, key_id: created.id, wrapped: this.box.seal(created.key, id), created_at: new Date() });
      return this.remember(id, created);
    } catch (error) {
      if (!(error instanceof MongoServerError) || error.code !== DUPLICATE_KEY) throw error;
      const winner = await this.read(id);
      if (!winner) throw new Error('a data key vanished right after another writer created it');
      return winner;
    }
  }

  async find(subject: string, keyId: string): Promise<DataKey | undefined> {
    const id = subjectHash(subject);
    const key = this.cached(id) ?? (await this.read(id));
    return key?.id === keyId ? key : undefined;
  }

  async destroy(subject: string): Promise<void> {
    const id = subjectHash(subject);
    this.cache.delete(id);
    await this.keys.deleteOne({ _id: id }, { writeConcern: { w: 'majority', journal: true } });
  }

  async ping(): Promise<void> {
    await this.client.db('admin').command({ ping: 1 });
  }

  async close(): Promise<void> {
    this.cache.clear();
    await this.client.close();
  }

  private cached(id: string): DataKey | undefined {
    const entry = this.cache.get(id);
    if (!entry || entry.until < Date.now()) return undefined;
    return entry.key;
  }

  private remember(id: string, key: DataKey): DataKey {
    this.cache.set(id, { key, until: Date.now() + CACHE_TTL_MS });
    return key;
  }

  private async read(id: string): Promise<DataKey | undefined> {
    const found = await this.keys.findOne({ _id: id });
    if (!found) return undefined;
    return this.remember(id, { id: found.key_id, key: this.box.openBytes(found.wrapped, id) });
  }
}
