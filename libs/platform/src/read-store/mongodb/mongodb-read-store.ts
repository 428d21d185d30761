/**
 * The MongoDB read store. One MongoDB collection per read-model collection;
 * a document is stored as its fields plus
 *
 *   _id        the read-model id
 *   _position  Decimal128 of the last applied global position: bigint-safe
 *              beyond int64 (EventStoreDB commit positions are unsigned
 *              64-bit) and compared numerically by the server
 *   _deleted   true on a tombstone, which keeps only _id and _position
 *
 * Each IndexSpec becomes `{...fields: 1, _id: 1}` (the _id tie-breaker makes
 * the sort total, so cursors are exact), partial on `_deleted: false` so that
 * tombstones stay out of it, named `<declared name>.<hash of its fields>`;
 * queries hint that index, never scanning.
 *
 * Every operation uses only what both MongoDB and wire-compatible servers
 * (CI's mongo-java-server) implement: no pipeline updates, no transactions.
 *
 * `apply` is optimistic: read, evolve, then write only if the document is
 * still exactly what was read (same `_position` and `_deleted`, or still
 * absent: insert fails with duplicate key 11000), else read again. A blind
 * upsert filtered on `_position < position` would keep positions monotonic but
 * could store an evolve computed from a state another writer had already
 * replaced, losing that writer's update. `evolve` may therefore run more than
 * once; it must be pure (projections' are).
 *
 * Durability is the client's write concern (set it in MONGODB_URL); MongoDB's
 * default `w: majority` on a replica set is journaled.
 */
import {
  BSON,
  Decimal128,
  MongoClient,
  MongoServerError,
  type Collection,
  type Db,
  type Document,
  type Filter,
  type MongoClientOptions,
  type Sort,
} from 'mongodb';
import { createHash } from 'node:crypto';
import { BackendUnavailableError } from '../../errors.js';
import {
  checkCheckpointName,
  checkCollectionName,
  checkEvolved,
  checkId,
  checkIndexSpecs,
  checkPosition,
  indexValue,
  normaliseNumber,
} from '../documents.js';
import { InvalidCursorError, ReadStoreContentionError, UnknownIndexError } from '../errors.js';
import { TYPE_ORDER, planQuery, scalarType, type QueryPlan, type ScalarType } from '../query-plan.js';
import { checkManyIds, scanPages } from '../scan.js';
import type {
  Doc,
  Evolve,
  IndexSpec,
  Page,
  Query,
  ReadCollection,
  ReadStore,
  Scalar,
  Stored,
} from '../read-store.port.js';

/** A stored document without its _id: what a replace writes. */
interface MongoFields {
  _position: Decimal128;
  _deleted: boolean;
  [field: string]: unknown;
}

interface MongoDoc extends MongoFields {
  _id: string;
}

interface CheckpointDoc {
  _id: string;
  position: Decimal128;
}

/** What a cursor remembers: the index, the last item's index values and id. */
interface CursorPayload {
  i: string;
  v: Scalar[];
  id: string;
}

const DUPLICATE_KEY = 11000;
const NAMESPACE_NOT_FOUND = 26;
const INDEX_NOT_FOUND = 27;
/** createIndex on an existing name with other keys (86) or options (85). */
const INDEX_CONFLICTS = new Set([85, 86]);
/** Each failed attempt means another writer succeeded on the same document. */
const MAX_APPLY_ATTEMPTS = 200;
const CHECKPOINTS = '_checkpoints';
/** Documents tombstoned per read in deleteWhere. */
const DELETE_BATCH = 500;

export class MongoReadStore implements ReadStore {
  private readonly indexes: IndexRegistry;

  private constructor(
    private readonly client: MongoClient,
    private readonly db: Db,
  ) {
    this.indexes = new IndexRegistry(db);
  }

  static async open(url: string, database: string, options?: MongoClientOptions): Promise<MongoReadStore> {
    const client = new MongoClient(url, options);
    await client.connect();
    return new MongoReadStore(client, client.db(database));
  }

  /**
   * Indexes accumulate as in the embedded store: declared ones are created
   * (built over existing documents by MongoDB), changed ones rebuilt, and
   * unmentioned ones left alone.
   */
  async collection<T extends Doc>(name: string, indexes: IndexSpec[] = []): Promise<ReadCollection<T>> {
    checkCollectionName(name);
    const specs = checkIndexSpecs(name, indexes);
    const collection = this.db.collection<MongoDoc>(name);
    for (const spec of specs) await ensureIndex(collection, spec);
    await this.indexes.refresh(name);
    return new MongoCollection<T>(collection, name, this.indexes);
  }

  async getCheckpoint(name: string): Promise<bigint | undefined> {
    checkCheckpointName(name);
    const found = await this.checkpoints().findOne({ _id: name });
    return found ? fromDecimal(found.position) : undefined;
  }

  async setCheckpoint(name: string, position: bigint): Promise<void> {
    checkCheckpointName(name);
    checkPosition(position);
    await this.checkpoints().replaceOne({ _id: name }, { position: toDecimal(position) }, { upsert: true });
  }

  async deleteCheckpoint(name: string): Promise<void> {
    checkCheckpointName(name);
    await this.checkpoints().deleteOne({ _id: name });
  }

  async ping(): Promise<void> {
    try {
      await this.db.command({ ping: 1 });
    } catch (error) {
      throw new BackendUnavailableError(`mongodb read store: ${(error as Error).message}`);
    }
  }

  async close(): Promise<void> {
    await this.client.close();
  }

  private checkpoints(): Collection<CheckpointDoc> {
    return this.db.collection<CheckpointDoc>(CHECKPOINTS);
  }
}

class MongoCollection<T extends Doc> implements ReadCollection<T> {
  constructor(
    private readonly collection: Collection<MongoDoc>,
    readonly name: string,
    private readonly indexes: IndexRegistry,
  ) {}

  async get(id: string): Promise<T | undefined> {
    return (await this.getStored(id))?.doc;
  }

  async getStored(id: string): Promise<Stored<T> | undefined> {
    checkId(this.name, id);
    const found = await this.collection.findOne({ _id: id, _deleted: false });
    return found ? { doc: toDoc<T>(found), position: fromDecimal(found._position) } : undefined;
  }

  async getMany(ids: readonly string[]): Promise<Array<T | undefined>> {
    checkManyIds(ids);
    for (const id of ids) checkId(this.name, id);
    if (ids.length === 0) return [];
    const found = await this.collection.find({ _id: { $in: [...new Set(ids)] }, _deleted: false }).toArray();
    const byId = new Map(found.map((raw) => [raw._id, toDoc<T>(raw)]));
    return ids.map((id) => byId.get(id));
  }

  async apply(id: string, position: bigint, evolve: Evolve<T>): Promise<boolean> {
    checkId(this.name, id);
    checkPosition(position);
    for (let attempt = 0; attempt < MAX_APPLY_ATTEMPTS; attempt++) {
      const found = await this.collection.findOne({ _id: id });
      if (found && fromDecimal(found._position) >= position) return false;

      const next = evolve(found && !found._deleted ? toDoc<T>(found) : undefined);
      checkEvolved(this.name, id, next);
      if (next) this.checkIndexable(next);
      const replacement = next ? toStored(next, position) : tombstone(position);

      if (!found) {
        try {
          await this.collection.insertOne({ _id: id, ...replacement });
          return true;
        } catch (error) {
          if (error instanceof MongoServerError && error.code === DUPLICATE_KEY) continue;
          throw error;
        }
      }
      // _deleted too: deleteWhere tombstones a document without moving its
      // position, and an evolve computed from the erased content must not land.
      const result = await this.collection.replaceOne(
        { _id: id, _position: found._position, _deleted: found._deleted },
        replacement,
      );
      if (result.matchedCount === 1) return true;
    }
    throw new ReadStoreContentionError(this.name, id, MAX_APPLY_ATTEMPTS);
  }

  async find(query: Query): Promise<Page<T>> {
    const plan = await this.plan(query);
    const direction = plan.direction === 'asc' ? 1 : -1;
    const clauses = [matching(plan)];
    if (plan.cursor !== undefined) clauses.push(afterCursor(plan, decodeCursor(plan)));
    const sort: Sort = Object.fromEntries([...plan.index.fields, '_id'].map((field) => [field, direction]));
    const found = await this.hinted(plan, (hint) =>
      this.collection.find(clauses.length === 1 ? clauses[0]! : { $and: clauses }, { sort, hint, limit: plan.limit + 1 }).toArray(),
    );
    const page = found.slice(0, plan.limit);
    const last = page.at(-1);
    return {
      items: page.map((raw) => toDoc<T>(raw)),
      nextCursor: found.length > plan.limit && last ? encodeCursor(plan, last) : null,
    };
  }

  /** Page after page through `find`: each batch is a round trip to the server. */
  scan(query: Omit<Query, 'limit' | 'cursor'>, batch?: number): AsyncIterable<T[]> {
    return scanPages((page) => this.find(page), query, batch);
  }

  async count(query: Omit<Query, 'limit' | 'cursor' | 'direction'>): Promise<number> {
    const plan = await this.plan(query);
    return this.hinted(plan, (hint) => this.collection.countDocuments(matching(plan), { hint }));
  }

  /**
   * Matching documents become tombstones (only _id and _position stay), so
   * replaying the log cannot bring erased data back.
   *
   * Each is replaced one by one, guarded like `apply` by the `_position` it
   * was read at (and by still matching), with plain replace documents: no
   * pipeline update (`$replaceWith`), which wire-compatible servers such as
   * mongo-java-server lack. A document that a concurrent `apply` moved is
   * found again by the next pass if it still matches; passes go on until
   * none matches, so nothing that matched when the call returns is left.
   */
  async deleteWhere(query: Omit<Query, 'limit' | 'cursor' | 'direction'>): Promise<number> {
    const plan = await this.plan(query);
    const filter = matching(plan);
    let deleted = 0;
    // Only passes that tombstoned nothing count: each one means other writers won every race.
    for (let idle = 0; idle < MAX_APPLY_ATTEMPTS; ) {
      const found = await this.hinted(plan, (hint) =>
        this.collection.find(filter, { hint, limit: DELETE_BATCH, projection: { _id: 1, _position: 1 } }).toArray(),
      );
      if (found.length === 0) return deleted;
      let progress = 0;
      for (const doc of found) {
        const result = await this.collection.replaceOne(
          { $and: [filter, { _id: doc._id, _position: doc._position }] },
          { _position: doc._position, _deleted: true },
        );
        progress += result.modifiedCount;
      }
      deleted += progress;
      idle = progress === 0 ? idle + 1 : 0;
    }
    throw new ReadStoreContentionError(this.name, `deleteWhere(${plan.index.name})`, MAX_APPLY_ATTEMPTS);
  }

  /** Drops documents and tombstones; the indexes stay. */
  async clear(): Promise<void> {
    await this.collection.deleteMany({});
  }

  private async plan(query: Query): Promise<QueryPlan> {
    try {
      return planQuery(this.name, this.indexes.get(this.name), query);
    } catch (error) {
      if (!(error instanceof UnknownIndexError)) throw error;
      // Another handle or process may have declared it since the list was read.
      return planQuery(this.name, await this.indexes.refresh(this.name), query);
    }
  }

  /** Runs with the index's stored name; once more if another process rebuilt it meanwhile (the hinted name is gone). */
  private async hinted<R>(plan: QueryPlan, run: (hint: string) => Promise<R>): Promise<R> {
    try {
      return await run(this.indexes.storedName(this.name, plan.index.name));
    } catch (error) {
      if (!(error instanceof MongoServerError && /hint/i.test(error.message))) throw error;
      await this.indexes.refresh(this.name);
      return run(this.indexes.storedName(this.name, plan.index.name));
    }
  }

  private checkIndexable(doc: Doc): void {
    for (const spec of this.indexes.get(this.name)) for (const field of spec.fields) indexValue(this.name, doc, field);
  }
}

/**
 * The declared indexes per collection, as MongoDB lists them. A declared
 * index `by_x` on fields F is stored under the name `by_x.<hash of F>`
 * (declared names cannot hold a dot): redeclaring `by_x` with other fields
 * builds a new index beside the old one and then drops the old, and a hint
 * never names an index that was dropped and recreated with other keys (a
 * server may keep answering from the old one; mongo-java-server does).
 */
class IndexRegistry {
  private readonly known = new Map<string, IndexSpec[]>();
  private readonly stored = new Map<string, Map<string, string>>();

  constructor(private readonly db: Db) {}

  get(collection: string): IndexSpec[] {
    return this.known.get(collection) ?? [];
  }

  /** The name MongoDB knows a declared index by. */
  storedName(collection: string, name: string): string {
    return this.stored.get(collection)?.get(name) ?? name;
  }

  async refresh(collection: string): Promise<IndexSpec[]> {
    const listed = await listIndexes(this.db.collection(collection));
    const specs = listed.map((index) => ({ name: index.declared, fields: index.fields }));
    this.known.set(collection, specs);
    this.stored.set(collection, new Map(listed.map((index) => [index.declared, index.name])));
    return specs;
  }
}

interface ListedIndex {
  /** As MongoDB names it. */
  name: string;
  /** As the read model declared it. */
  declared: string;
  fields: string[];
  key: string;
}

async function listIndexes(collection: Collection<Document>): Promise<ListedIndex[]> {
  let listed: Document[];
  try {
    listed = await collection.listIndexes().toArray();
  } catch (error) {
    if (error instanceof MongoServerError && error.code === NAMESPACE_NOT_FOUND) return [];
    throw error;
  }
  return listed
    .filter((index) => index.name !== '_id_')
    .map((index) => {
      const name = String(index.name);
      const keys = Object.keys(index.key as Document);
      return { name, declared: name.split('.')[0]!, fields: keys.filter((field) => field !== '_id'), key: keys.join('\n') };
    });
}

function storedIndexName(spec: IndexSpec): string {
  return `${spec.name}.${createHash('sha256').update(spec.fields.join('\n')).digest('hex').slice(0, 12)}`;
}

async function ensureIndex(collection: Collection<MongoDoc>, spec: IndexSpec): Promise<void> {
  const fields = [...spec.fields, '_id'];
  const keys = Object.fromEntries(fields.map((field) => [field, 1 as const]));
  const name = storedIndexName(spec);
  const existing = await listIndexes(collection as unknown as Collection<Document>);
  if (existing.some((index) => index.name === name)) return;
  // MongoDB refuses a second index on the same keys, so one that a renamed
  // declaration replaces goes first; the declaration's own older shape goes after.
  const key = fields.join('\n');
  for (const index of existing) if (index.key === key) await dropIndex(collection, index.name);
  try {
    await collection.createIndex(keys, { name, partialFilterExpression: { _deleted: false } });
  } catch (error) {
    // Another process created it between our list and our create.
    if (!(error instanceof MongoServerError && typeof error.code === 'number' && INDEX_CONFLICTS.has(error.code))) throw error;
  }
  for (const index of existing) if (index.declared === spec.name && index.key !== key) await dropIndex(collection, index.name);
}

async function dropIndex(collection: Collection<MongoDoc>, name: string): Promise<void> {
  try {
    await collection.dropIndex(name);
  } catch (error) {
    // Dropped by another process meanwhile.
    if (!(error instanceof MongoServerError && error.code === INDEX_NOT_FOUND)) throw error;
  }
}

function toDecimal(position: bigint): Decimal128 {
  return Decimal128.fromString(position.toString());
}

function fromDecimal(value: Decimal128): bigint {
  return BigInt(value.toString());
}

function toStored(doc: Doc, position: bigint): MongoFields {
  const { id: _id, ...fields } = doc;
  return { ...fields, _position: toDecimal(position), _deleted: false };
}

function tombstone(position: bigint): MongoFields {
  return { _position: toDecimal(position), _deleted: true };
}

function toDoc<T extends Doc>(raw: MongoDoc): T {
  const { _id, _position, _deleted, ...fields } = raw;
  return { id: _id, ...fields } as T;
}

function matching(plan: QueryPlan): Filter<MongoDoc> {
  const filter: Document = { _deleted: false };
  plan.equals.forEach((value, i) => {
    filter[plan.index.fields[i]!] = value;
  });
  if (plan.rangeField) {
    const range: Document = {};
    if (plan.lower) range[plan.lower.inclusive ? '$gte' : '$gt'] = plan.lower.value;
    if (plan.upper) range[plan.upper.inclusive ? '$lte' : '$lt'] = plan.upper.value;
    filter[plan.rangeField] = range;
  }
  return filter;
}

/**
 * Documents strictly after the cursor in (fields…, _id) order. Comparison
 * operators stay within one BSON type, so "after" also names the types that
 * sort later (`TYPE_ORDER`): after the number 5 ascending come the numbers
 * above 5, then every string, then every boolean. A missing field is null.
 */
function afterCursor(plan: QueryPlan, cursor: CursorPayload): Filter<MongoDoc> {
  const fields = plan.index.fields;
  const from = plan.equals.length;
  const asc = plan.direction === 'asc';
  const sameUpTo = (end: number): Document[] => fields.slice(from, end).map((field, i) => ({ [field]: cursor.v[from + i] }));
  const branches: Document[] = [];
  for (let j = from; j < fields.length; j++) {
    for (const beyond of beyondValue(fields[j]!, cursor.v[j]!, asc)) branches.push({ $and: [...sameUpTo(j), beyond] });
  }
  branches.push({ $and: [...sameUpTo(fields.length), { _id: asc ? { $gt: cursor.id } : { $lt: cursor.id } }] });
  return { $or: branches };
}

const OF_TYPE: Record<ScalarType, (field: string) => Document> = {
  null: (field) => ({ [field]: null }),
  number: (field) => ({ [field]: { $type: 'number' } }),
  string: (field) => ({ [field]: { $type: 'string' } }),
  boolean: (field) => ({ [field]: { $type: 'bool' } }),
};

function beyondValue(field: string, value: Scalar, asc: boolean): Document[] {
  const rank = TYPE_ORDER.indexOf(scalarType(value));
  const otherTypes = asc ? TYPE_ORDER.slice(rank + 1) : TYPE_ORDER.slice(0, rank);
  const sameType = value === null ? [] : [{ [field]: { [asc ? '$gt' : '$lt']: value } }];
  return [...sameType, ...otherTypes.map((type) => OF_TYPE[type](field))];
}

function encodeCursor(plan: QueryPlan, last: MongoDoc): string {
  const payload: CursorPayload = {
    i: plan.index.name,
    v: plan.index.fields.map((field) => scalarOf(last[field])),
    id: last._id,
  };
  return Buffer.from(BSON.serialize(payload)).toString('base64url');
}

function decodeCursor(plan: QueryPlan): CursorPayload {
  let payload: Document;
  try {
    payload = BSON.deserialize(Buffer.from(plan.cursor!, 'base64url'));
  } catch {
    throw new InvalidCursorError();
  }
  const { i, v, id } = payload;
  const fields = plan.index.fields;
  const valid =
    i === plan.index.name &&
    typeof id === 'string' &&
    Array.isArray(v) &&
    v.length === fields.length &&
    v.every((value) => value === null || ['string', 'number', 'boolean'].includes(typeof value)) &&
    plan.equals.every((value, k) => value === v[k]);
  if (!valid) throw new InvalidCursorError();
  return { i, v, id };
}

function scalarOf(value: unknown): Scalar {
  if (value === undefined || value === null) return null;
  if (typeof value === 'number') return normaliseNumber(value);
  return value as Scalar;
}
