/**
 * The embedded read store: LMDB (lmdb-js) in one directory under DATA_DIR.
 * Key layout and ordering: `keys.ts`.
 *
 * Atomicity. Every write (apply, deleteWhere, clear, index builds) runs as a
 * transaction callback, queued on the store's TransactionTurns (../../shared-lmdb.ts,
 * ADR 0049: a batch's callbacks take ~2 ms of the loop, the rest go in the
 * next batch). Those callbacks run one after the other, in call order, inside
 * LMDB's single write transaction, and their
 * reads see the transaction's own state; so apply's read-modify-write of a
 * document, its tombstone and its index entries cannot interleave with another
 * apply, in this process or in another one (LMDB's writer lock is
 * inter-process; the reads happen under it). That holds for processes on one
 * machine sharing a local file system, not over a network file system.
 *
 * lmdb-js does not roll back the writes an asynchronous transaction callback
 * made before it threw, so each callback computes everything that can fail
 * (evolve, validation, index keys) before its first write.
 *
 * Durability. The environment is opened without lmdb-js's `overlappingSync`
 * (../../shared-lmdb.ts: with it, two writer processes could lose an
 * acknowledged write), so a commit is synced before the write lock is
 * released and `durability: 'committed'` is durable too; `flushed` also
 * waits for lmdb-js's flush bookkeeping.
 */
import fs from 'node:fs/promises';
import { setImmediate as loopTurn } from 'node:timers/promises';
import { open, type Database, type RootDatabase } from 'lmdb';
import { BackendUnavailableError } from '../../errors.js';
import { TransactionTurns, WRITTEN_BY_SEVERAL_PROCESSES } from '../../shared-lmdb.js';
import {
  checkCheckpointName,
  checkCollectionName,
  checkEvolved,
  checkId,
  checkIndexSpecs,
  checkPosition,
  indexValue,
  sameIndex,
} from '../documents.js';
import { InvalidCursorError, InvalidDocumentError } from '../errors.js';
import { planQuery, type QueryPlan } from '../query-plan.js';
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
import {
  MAX_KEY_BYTES,
  decodeCursor,
  docKey,
  docKeyForLookup,
  encodeCursor,
  indexKey,
  indexPrefix,
  planSpan,
  prefixSpan,
  type Span,
} from './keys.js';

/**
 * Documents are msgpack records whose field names are stored once, under one
 * key of the docs database, rather than in every document (lmdb-js's shared
 * structures; docs/adr/0047). Without them each document carried its own
 * record definition, and every read parsed it again: a read took 3× as long,
 * a write 1.5×, and a stored loan was 171 bytes instead of 52. Every document
 * key starts with its collection's name (`keys.ts`), whose UTF-8 never holds
 * 0xFF, so this key is outside every collection's range.
 *
 * Documents written before hold their definitions inline and read as before
 * (msgpackr restores the shared definitions after such a record). Processes
 * sharing the store save a new structure under the write lock, compared with
 * what is stored, and re-read the list when another process added to it.
 * The limit keeps documents with dynamic field names (maps keyed by id) from
 * filling the list: structures beyond it are written inline, as before.
 */
const SHARED_STRUCTURES = { sharedStructuresKey: Buffer.from([0xff, 0x73]), maxSharedStructures: 512 } as const;

/** A stored document; without `d` it is a tombstone that only remembers its position. */
interface DocEntry {
  /** Position as a decimal string: msgpack has no 64-bit unsigned bigint that round-trips. */
  p: string;
  d?: Doc;
}

interface CollectionMeta {
  indexes: IndexSpec[];
}

export interface EmbeddedReadStoreOptions {
  /**
   * `flushed` (default): writes resolve once fsync'ed and survive power loss.
   * `committed`: writes resolve at commit; they survive a process crash or
   * kill -9 but the last ones may be lost on power loss. Faster under load.
   */
  durability?: 'flushed' | 'committed';
}

/** What the collections share with their store. */
interface Lmdb {
  env: RootDatabase;
  /** Every transaction callback on `env` goes through it (one batch's callbacks bounded to a turn). */
  turns: TransactionTurns;
  docs: Database<DocEntry, Buffer>;
  index: Database<string, Buffer>;
  collections: Database<CollectionMeta, string>;
  /** Each collection's index specs as last decoded, with the stored bytes they came from. */
  declared: Map<string, { bytes: Buffer; specs: IndexSpec[] }>;
  durable(): Promise<void>;
}

export class EmbeddedReadStore implements ReadStore {
  /** lmdb-js runs transaction callbacks in call order (setCheckpoint relies on it too). */
  readonly writesInCallOrder = true;
  private closed = false;

  private constructor(
    private readonly db: Lmdb,
    private readonly checkpoints: Database<string, string>,
  ) {}

  static async open(dir: string, options: EmbeddedReadStoreOptions = {}): Promise<EmbeddedReadStore> {
    await fs.mkdir(dir, { recursive: true });
    // noSubdir: false, or a directory name with a dot would be taken for a file name.
    const env = open({ path: dir, noSubdir: false, maxDbs: 8, ...WRITTEN_BY_SEVERAL_PROCESSES });
    const durability = options.durability ?? 'flushed';
    const db: Lmdb = {
      env,
      turns: new TransactionTurns(env),
      docs: env.openDB<DocEntry, Buffer>({ name: 'docs', keyEncoding: 'binary', ...SHARED_STRUCTURES }),
      index: env.openDB<string, Buffer>({ name: 'index', keyEncoding: 'binary', encoding: 'string' }),
      collections: env.openDB<CollectionMeta, string>({ name: 'collections' }),
      declared: new Map(),
      durable: async () => {
        if (durability === 'flushed') await env.flushed;
      },
    };
    return new EmbeddedReadStore(db, env.openDB<string, string>({ name: 'checkpoints', encoding: 'string' }));
  }

  /**
   * Indexes accumulate: a declaration adds new indexes and rebuilds any whose
   * fields changed, but never drops one it does not mention, so a query
   * handler may call `collection(name)` without repeating the projection's
   * index list.
   */
  /** Write-transaction callbacks waiting for the next batch (the `lmdb_transactions_waiting` gauge). */
  get transactionsWaiting(): number {
    return this.db.turns.waiting;
  }

  async collection<T extends Doc>(name: string, indexes: IndexSpec[] = []): Promise<ReadCollection<T>> {
    checkCollectionName(name);
    const specs = checkIndexSpecs(name, indexes);
    const { turns, docs, index, collections } = this.db;
    const wrote = await turns.run(() => {
      const meta = collections.get(name);
      const declared = meta?.indexes ?? [];
      const stale = specs.filter((spec) => !declared.some((d) => sameIndex(d, spec)));
      if (meta && stale.length === 0) return false;

      const removals: Buffer[] = [];
      for (const spec of stale) {
        removals.push(...keysIn(index, prefixSpan([name, spec.name])));
      }
      const additions: Array<[Buffer, string]> = [];
      const span = prefixSpan([name]);
      for (const { value } of docs.getRange({ start: span.lower, end: span.upper })) {
        const doc = value.d;
        if (doc) additions.push(...entryKeys(name, stale, doc).map((key): [Buffer, string] => [key, doc.id]));
      }

      for (const key of removals) index.remove(key);
      for (const [key, id] of additions) index.put(key, id);
      const kept = declared.filter((d) => !stale.some((s) => s.name === d.name));
      collections.put(name, { indexes: [...kept, ...stale] });
      return true;
    });
    if (wrote) await this.db.durable();
    return new EmbeddedCollection<T>(this.db, name);
  }

  async getCheckpoint(name: string): Promise<bigint | undefined> {
    checkCheckpointName(name);
    const value = this.checkpoints.get(name);
    return value === undefined ? undefined : BigInt(value);
  }

  /**
   * Written through a transaction callback rather than a plain put: lmdb-js
   * commits queued plain puts ahead of queued transaction callbacks, which
   * could land a checkpoint before an apply that was called earlier.
   */
  async setCheckpoint(name: string, position: bigint): Promise<void> {
    checkCheckpointName(name);
    checkPosition(position);
    await this.db.turns.run(() => this.checkpoints.put(name, position.toString()));
    await this.db.durable();
  }

  async deleteCheckpoint(name: string): Promise<void> {
    checkCheckpointName(name);
    await this.db.turns.run(() => this.checkpoints.remove(name));
    await this.db.durable();
  }

  async ping(): Promise<void> {
    if (this.closed) throw new BackendUnavailableError('embedded read store is closed');
    this.db.env.getStats();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.db.env.close();
  }
}

class EmbeddedCollection<T extends Doc> implements ReadCollection<T> {
  constructor(
    private readonly db: Lmdb,
    readonly name: string,
  ) {}

  async get(id: string): Promise<T | undefined> {
    return (await this.getStored(id))?.doc;
  }

  async getStored(id: string): Promise<Stored<T> | undefined> {
    checkId(this.name, id);
    const entry = this.db.docs.get(docKeyForLookup(this.name, id) as Buffer);
    return entry?.d ? { doc: entry.d as T, position: BigInt(entry.p) } : undefined;
  }

  async getMany(ids: readonly string[]): Promise<Array<T | undefined>> {
    checkManyIds(ids);
    for (const id of ids) checkId(this.name, id);
    // Synchronous reads: the loop's turn first, as between a scan's batches (read-store.port.ts).
    await loopTurn();
    const { env, docs } = this.db;
    const transaction = env.useReadTransaction();
    try {
      return ids.map((id) => docs.get(docKeyForLookup(this.name, id) as Buffer, { transaction })?.d as T | undefined);
    } finally {
      transaction.done();
    }
  }

  async apply(id: string, position: bigint, evolve: Evolve<T>): Promise<boolean> {
    checkId(this.name, id);
    checkPosition(position);
    const { turns, docs, index } = this.db;
    const key = docKey(this.name, id);
    const applied = await turns.run(() => {
      const entry = docs.get(key);
      if (entry && BigInt(entry.p) >= position) return false;

      const next = evolve(entry?.d as T | undefined);
      checkEvolved(this.name, id, next);
      const { removed, added } = indexChanges(this.name, this.indexes(), entry?.d, next ?? undefined);
      for (const old of removed) index.remove(old);
      for (const fresh of added) index.put(fresh, id);
      docs.put(key, next ? { p: position.toString(), d: next } : { p: position.toString() });
      return true;
    });
    if (applied) await this.db.durable();
    return applied;
  }

  async find(query: Query): Promise<Page<T>> {
    const plan = planQuery(this.name, this.indexes(), query);
    const span = this.withCursor(plan, planSpan(this.name, plan));
    if (Buffer.compare(span.lower, span.upper) >= 0) return { items: [], nextCursor: null };

    const { env, docs, index } = this.db;
    // One snapshot for the index walk and the document reads, so an entry
    // and the document it points at always agree.
    const transaction = env.useReadTransaction();
    try {
      const range =
        plan.direction === 'asc'
          ? index.getRange({ start: span.lower, end: span.upper, transaction })
          : index.getRange({
              start: span.upper,
              end: span.lower,
              reverse: true,
              exclusiveStart: true,
              inclusiveEnd: true,
              transaction,
            });
      const items: T[] = [];
      let lastKey: Buffer | undefined;
      for (const { key, value: id } of range) {
        if (items.length === plan.limit) {
          return { items, nextCursor: encodeCursor(lastKey!) };
        }
        const entry = docs.get(docKeyForLookup(this.name, id) as Buffer, { transaction });
        if (!entry?.d) continue;
        items.push(entry.d as T);
        // Copied once, for the page's last item only (the range's key buffer is reused as it moves on).
        if (items.length === plan.limit) lastKey = Buffer.from(key);
      }
      return { items, nextCursor: null };
    } finally {
      transaction.done();
    }
  }

  /**
   * LMDB reads are synchronous (memory-mapped): a find answers without
   * waiting on anything, so a caller reading a large collection page after
   * page would hold the loop from the first page to the last. The scan waits
   * for the loop's next turn (after its I/O callbacks) before each batch
   * after the first, where MongoDB waits for the next batch's round trip.
   */
  scan(query: Omit<Query, 'limit' | 'cursor'>, batch?: number): AsyncIterable<T[]> {
    return scanPages((page) => this.find(page), query, batch, () => loopTurn());
  }

  async count(query: Omit<Query, 'limit' | 'cursor' | 'direction'>): Promise<number> {
    const plan = planQuery(this.name, this.indexes(), query);
    const span = planSpan(this.name, plan);
    if (Buffer.compare(span.lower, span.upper) >= 0) return 0;
    return this.db.index.getKeysCount({ start: span.lower, end: span.upper });
  }

  /**
   * Matching documents become tombstones: their content and index entries go,
   * their positions stay, so replaying the log cannot bring erased data back.
   */
  async deleteWhere(query: Omit<Query, 'limit' | 'cursor' | 'direction'>): Promise<number> {
    const { turns, docs, index } = this.db;
    const deleted = await turns.run(() => {
      const specs = this.indexes();
      const span = planSpan(this.name, planQuery(this.name, specs, query));
      if (Buffer.compare(span.lower, span.upper) >= 0) return 0;
      const ids = new Set<string>();
      for (const { value } of index.getRange({ start: span.lower, end: span.upper })) ids.add(value);
      const doomed = [...ids].map((id) => {
        const key = docKey(this.name, id);
        const entry = docs.get(key)!;
        return { key, position: entry.p, entries: entry.d ? entryKeys(this.name, specs, entry.d) : [] };
      });
      for (const { key, position, entries } of doomed) {
        for (const entry of entries) index.remove(entry);
        docs.put(key, { p: position });
      }
      return doomed.length;
    });
    if (deleted > 0) await this.db.durable();
    return deleted;
  }

  /** Drops documents, tombstones and index entries; the declared indexes stay. */
  async clear(): Promise<void> {
    const { turns, docs, index } = this.db;
    const span = prefixSpan([this.name]);
    await turns.run(() => {
      const docKeys = keysIn(docs, span);
      const indexKeys = keysIn(index, span);
      for (const key of docKeys) docs.remove(key);
      for (const key of indexKeys) index.remove(key);
    });
    await this.db.durable();
  }

  /**
   * Read each time: another handle or process may have declared an index
   * since. Decoded only when the stored bytes changed: on the ping path every
   * apply asks, and reading and decoding the declarations each time took
   * about a fifth of an apply's time (ADR 0050).
   */
  private indexes(): IndexSpec[] {
    const { collections, declared } = this.db;
    // A copy of the stored bytes (a few hundred): comparing them costs far less than decoding them.
    const bytes = collections.getBinary(this.name);
    if (!bytes) return [];
    const known = declared.get(this.name);
    if (known?.bytes.equals(bytes)) return known.specs;
    const specs = collections.get(this.name)?.indexes ?? [];
    declared.set(this.name, { bytes, specs });
    return specs;
  }

  /** Narrows the span to what follows the cursor in the query's direction. */
  private withCursor(plan: QueryPlan, span: Span): Span {
    if (plan.cursor === undefined) return span;
    const key = decodeCursor(plan.cursor, indexPrefix(this.name, plan.index.name, plan.equals));
    if (!key) throw new InvalidCursorError();
    if (plan.direction === 'asc') {
      // key + 0x00 is the smallest byte string above key.
      const next = Buffer.concat([key, Buffer.from([0x00])]);
      return { lower: Buffer.compare(next, span.lower) > 0 ? next : span.lower, upper: span.upper };
    }
    return { lower: span.lower, upper: Buffer.compare(key, span.upper) < 0 ? key : span.upper };
  }
}

function entryKeys(collection: string, specs: IndexSpec[], doc: Doc): Buffer[] {
  return specs.map((spec) => entryKey(collection, spec, spec.fields.map((field) => indexValue(collection, doc, field)), doc.id));
}

function entryKey(collection: string, spec: IndexSpec, values: Scalar[], id: string): Buffer {
  const key = indexKey(collection, spec.name, values, id);
  if (key.length > MAX_KEY_BYTES) {
    throw new InvalidDocumentError(collection, id, `values indexed by "${spec.name}" exceed ${MAX_KEY_BYTES} bytes`);
  }
  return key;
}

/**
 * The index entries an apply removes and adds. An index whose values (and id)
 * are the same before and after is left alone without encoding its key: on the
 * ping path most updates change one indexed field of several, and encoding
 * every key twice was the largest cost of an apply (ADR 0049).
 */
function indexChanges(collection: string, specs: IndexSpec[], before: Doc | undefined, after: Doc | undefined): { removed: Buffer[]; added: Buffer[] } {
  const removed: Buffer[] = [];
  const added: Buffer[] = [];
  for (const spec of specs) {
    const was = before ? spec.fields.map((field) => indexValue(collection, before, field)) : undefined;
    const is = after ? spec.fields.map((field) => indexValue(collection, after, field)) : undefined;
    if (was && is && before!.id === after!.id && was.every((value, i) => value === is[i])) continue;
    if (was) removed.push(entryKey(collection, spec, was, before!.id));
    if (is) added.push(entryKey(collection, spec, is, after!.id));
  }
  return { removed, added };
}

/** Materialised (and copied) before any removal: never delete under a live cursor. */
function keysIn<V>(db: Database<V, Buffer>, span: Span): Buffer[] {
  return [...db.getKeys({ start: span.lower, end: span.upper })].map((key) => Buffer.from(key));
}
