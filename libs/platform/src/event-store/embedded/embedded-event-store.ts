import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { asBinary, open, type Database, type RootDatabase } from 'lmdb';
import { InvalidParamError } from '../../errors.js';
import { TransactionTurns, WRITTEN_BY_SEVERAL_PROCESSES } from '../../shared-lmdb.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ConcurrencyError, StreamNotFoundError } from '../errors.js';
import type {
  AppendResult,
  EventHandler,
  EventStore,
  ExpectedRevision,
  NewEvent,
  ReadAllOptions,
  ReadStreamOptions,
  RecordedEvent,
  StreamMetadata,
  StreamName,
  SubscribeOptions,
  Subscription,
} from '../event-store.port.js';
import { checkExpectedRevision } from '../expected-revision.js';
import { normalizeStreamMetadata } from '../stream-metadata.js';

/**
 * The embedded event store: one LMDB environment in a directory.
 *
 * Key layout (named LMDB databases, keys in lmdb-js's ordered-binary encoding,
 * values JSON):
 *   events        position (1, 2, 3…)      → StoredEvent   the global log
 *   stream_index  [stream, revision]       → position      per-stream order
 *   category_index [category, position]    → (empty)       per-category order, for filtered subscriptions
 *   streams       stream                   → StreamRecord  last revision ever written, deleted flag
 *   stream_meta   stream                   → StreamMetadata
 *   state         'head' | 'format'        → number
 *
 * Positions and revisions are kept as JS numbers inside the store (exact up to
 * 2^53, far beyond any embedded deployment) and become bigints at the port.
 *
 * A stream's category is its name up to and including the first `-`
 * (`access_log-acct_1` → `access_log-`; a name without `-` is its own
 * category). A subscription whose every prefix contains a `-` names whole
 * categories, so it reads their index instead of decoding the whole log: the
 * key directory following `api_key-` and `account-` does not parse every
 * access event the audit trail appends. Format 2 added the index; opening a
 * format-1 store builds it once.
 *
 * Writes go through lmdb-js asynchronous transactions: every `transaction()`
 * callback queued in the same event turn runs inside ONE LMDB write
 * transaction, in call order, on the main thread while the write worker holds
 * LMDB's write lock. That gives both properties we need:
 *   - the expected-revision check and the write happen in the same write
 *     transaction, serialised against every other writer, including other
 *     processes that opened the same directory (LMDB's lock is inter-process);
 *   - concurrent appends share one commit and one fsync (group commit).
 * An append resolves only after `flushed`, lmdb-js's word for "on disk". The
 * environment is opened without `overlappingSync` (see ../../shared-lmdb.ts:
 * with it, two writer processes could lose an acknowledged append).
 * `flushed` is asked for right after the transaction is queued, so an append
 * waits for its own batch's fsync, not for batches queued after it (ADR 0004).
 */

interface StoredEvent {
  id: string;
  stream: string;
  type: string;
  revision: number;
  data: Record<string, unknown>;
  metadata: Record<string, unknown>;
  /** Epoch milliseconds. */
  createdAt: number;
}

interface StreamRecord {
  /**
   * Revision of the last event ever appended, kept after a delete so a
   * recreated stream continues the numbering (EventStoreDB soft-delete semantics).
   */
  lastRevision: number;
  deleted: boolean;
}

type StreamIndexKey = [string, number];
type CategoryIndexKey = [string, number];
type StateKey = 'head' | 'format';

/** 2: category_index. A format-1 store is upgraded on open; an older build refuses a format-2 one. */
const FORMAT_VERSION = 2;
const UPGRADABLE_FORMATS = new Set([1]);
/** The category index only marks presence; LMDB needs some value. */
const PRESENT = asBinary(new Uint8Array([1]));
/** LMDB's key limit is ~1978 bytes; the [stream, revision] key must fit with room to spare. */
const MAX_STREAM_NAME_BYTES = 512;
/** How often an idle subscription looks for events appended by another process. */
const POLL_INTERVAL_MS = 200;
const SUBSCRIPTION_BATCH_SIZE = 256;
/** Main-thread time a subscription delivers events for before it lets the loop serve other I/O. */
const DELIVERY_SLICE_MS = 2;
const LAST_REVISION = Number.MAX_SAFE_INTEGER;
/** Events a filtered readAll gathers per index read. */
const READ_ALL_FILTERED_PAGE = 1000;
/** How far lastPositionOf looks back in a category for a stream of a narrower prefix. */
const LAST_POSITION_SCAN = 10_000;

export class EmbeddedEventStore implements EventStore {
  private readonly subscriptions = new Set<EmbeddedSubscription>();
  private readonly appendListeners = new Set<(stream: string) => void>();
  private closed = false;
  /** Every transaction callback on this environment goes through it (one batch's callbacks bounded to a turn). */
  private readonly turns = new TransactionTurns(this.root);

  private constructor(
    private readonly root: RootDatabase,
    private readonly events: Database<StoredEvent, number>,
    private readonly streamIndex: Database<number, StreamIndexKey>,
    private readonly categoryIndex: Database<Uint8Array, CategoryIndexKey>,
    private readonly streams: Database<StreamRecord, string>,
    private readonly streamMeta: Database<StreamMetadata, string>,
    private readonly state: Database<number, StateKey>,
  ) {}

  /** Write-transaction callbacks waiting for the next batch (the `lmdb_transactions_waiting` gauge). */
  get transactionsWaiting(): number {
    return this.turns.waiting;
  }

  /** Opens (creating if needed) the store in `dir`. Several processes may open the same directory. */
  static async open(dir: string): Promise<EmbeddedEventStore> {
    mkdirSync(dir, { recursive: true });
    const root = open({ path: dir, maxDbs: 8, ...WRITTEN_BY_SEVERAL_PROCESSES });
    const store = new EmbeddedEventStore(
      root,
      root.openDB<StoredEvent, number>('events', { encoding: 'json' }),
      root.openDB<number, StreamIndexKey>('stream_index', { encoding: 'json' }),
      root.openDB<Uint8Array, CategoryIndexKey>('category_index', { encoding: 'binary' }),
      root.openDB<StreamRecord, string>('streams', { encoding: 'json' }),
      root.openDB<StreamMetadata, string>('stream_meta', { encoding: 'json' }),
      root.openDB<number, StateKey>('state', { encoding: 'json' }),
    );
    const format = await store.turns.run(() => {
      const existing = store.state.get('format');
      if (existing !== undefined && UPGRADABLE_FORMATS.has(existing)) {
        store.buildCategoryIndex();
        store.state.putSync('format', FORMAT_VERSION);
        return FORMAT_VERSION;
      }
      if (existing === undefined) store.state.putSync('format', FORMAT_VERSION);
      return existing ?? FORMAT_VERSION;
    });
    if (format !== FORMAT_VERSION) {
      await root.close();
      throw new Error(`event store in ${dir} has format ${format}; this build reads format ${FORMAT_VERSION}`);
    }
    await root.flushed;
    return store;
  }

  async append(stream: StreamName, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    this.assertOpen();
    assertStreamName(stream);
    if (events.length === 0) throw new InvalidParamError('append needs at least one event', 'events');
    const createdAt = Date.now();
    // Serialise before entering the transaction: a throw inside the callback
    // after the first put would leave a half-written append in the batch.
    const prepared = prepareEvents(stream, events, createdAt);
    const category = categoryOf(stream);

    const committed = this.turns.run((): AppendResult | ConcurrencyError => {
      const record = this.streams.get(stream);
      const conflict = checkExpectedRevision(stream, expectedRevision, liveRevision(record));
      if (conflict) return conflict;
      let revision = record?.lastRevision ?? -1;
      let position = this.state.get('head') ?? 0;
      for (const event of prepared) {
        revision += 1;
        position += 1;
        // The JSON text was made once, outside; LMDB stores it as it is (what `encoding: 'json'` reads back).
        this.events.putSync(position, asBinary(Buffer.from(`${event.head}${revision}${event.tail}`)) as StoredEvent);
        this.streamIndex.putSync([stream, revision], position);
        this.categoryIndex.putSync([category, position], PRESENT as Uint8Array);
      }
      this.streams.putSync(stream, { lastRevision: revision, deleted: false });
      this.state.putSync('head', position);
      return { nextExpectedRevision: BigInt(revision), position: BigInt(position) };
    });
    // Taken now, while this transaction is the newest write: `flushed` covers every write queued before it is
    // asked. Asked after the commit, it would also wait for whatever was queued meanwhile (under load, the next
    // batch's commit and fsync).
    const durable = flushOf(this.root);
    const outcome = await committed;
    if (outcome instanceof ConcurrencyError) throw outcome;
    await durable;
    this.notifyAppended(stream);
    return outcome;
  }

  async readStream(stream: StreamName, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertFreshRead();
    const limit = maxCountOf(options.maxCount);
    if (!liveStream(this.streams.get(stream))) throw new StreamNotFoundError(stream);
    if (limit === 0) return [];
    const backwards = options.direction === 'backwards';
    const from = options.fromRevision === undefined ? undefined : toIndex(options.fromRevision, 'fromRevision');
    // A snapshot read: all the reads below happen synchronously in one lmdb-js read transaction.
    const range = backwards
      ? this.streamIndex.getRange({ start: [stream, from ?? LAST_REVISION], end: [stream, -1], reverse: true, limit })
      : this.streamIndex.getRange({ start: [stream, from ?? 0], end: [stream, LAST_REVISION], limit });
    const out: RecordedEvent[] = [];
    for (const { value: position } of range) out.push(this.eventAt(position));
    return out;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    this.assertFreshRead();
    const limit = maxCountOf(options.maxCount);
    const after = options.after === undefined ? 0 : toIndex(options.after, 'after');
    const prefixes = options.streamPrefixes;
    if (prefixes === undefined) return limit === 0 ? [] : this.readAfter(after, limit);
    const filter = filterOf(prefixes);
    if (limit === 0) return [];
    // Synchronous to the end: every page comes from the same LMDB read snapshot.
    const head = this.state.get('head') ?? 0;
    const out: RecordedEvent[] = [];
    let position = after;
    while (position < head) {
      const { events, through } = filter.categories
        ? this.readCategoriesAfter(filter.categories, filter.matches, position, READ_ALL_FILTERED_PAGE)
        : this.readMatchingAfter(filter.matches, position, READ_ALL_FILTERED_PAGE);
      for (const event of events) {
        // In position order: the caller resumes after the last one returned.
        if (limit !== undefined && out.length >= limit) return out;
        out.push(event);
      }
      if (through <= position) break;
      position = through;
    }
    return out;
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    this.assertOpen();
    const after = options.after === undefined ? 0 : toIndex(options.after, 'after');
    const { categories, matches } = options.streamPrefixes === undefined ? { categories: undefined, matches: () => true } : filterOf(options.streamPrefixes);
    const subscription = new EmbeddedSubscription(
      {
        read: (position, limit) => (categories ? this.readCategoriesAfter(categories, matches, position, limit) : this.readMatchingAfter(matches, position, limit)),
        flushed: () => this.root.flushed,
        isClosed: () => this.closed,
        // Only appends to streams it follows wake a subscription: the key directory sleeps through the access log.
        onAppend: (listener) => {
          const wake = (stream: string) => {
            if (matches(stream)) listener();
          };
          this.appendListeners.add(wake);
          return () => this.appendListeners.delete(wake);
        },
      },
      after,
      handler,
    );
    this.subscriptions.add(subscription);
    subscription.done.then(
      () => this.subscriptions.delete(subscription),
      () => this.subscriptions.delete(subscription),
    );
    return subscription;
  }

  /**
   * Deletes the stream for real: its events leave the log and the index in the
   * same transaction, so later reads, readAll and new subscriptions never see
   * them (consent erasure relies on this). The stream record keeps its last
   * revision so a later append with `no_stream` or `any` recreates the stream
   * and continues the numbering, as EventStoreDB's soft delete does. Positions
   * are never reused, so checkpoints stay valid. Stream metadata is kept.
   * The freed LMDB pages are reused, not wiped at once: erasing the bytes
   * themselves is crypto-shredding's job (docs/adr/0002).
   * Deleting a stream that does not exist is a no-op when `expectedRevision`
   * allows it (`any`, `no_stream`).
   */
  async deleteStream(stream: StreamName, expectedRevision: ExpectedRevision = 'any'): Promise<void> {
    this.assertOpen();
    assertStreamName(stream);
    const conflict = await this.turns.run((): ConcurrencyError | undefined => {
      const record = this.streams.get(stream);
      const current = liveRevision(record);
      const error = checkExpectedRevision(stream, expectedRevision, current);
      if (error || record === undefined || current === undefined) return error;
      // Collect first: removing entries while a cursor walks the same range is not safe in LMDB.
      const entries = [...this.streamIndex.getRange({ start: [stream, 0], end: [stream, LAST_REVISION] })];
      const category = categoryOf(stream);
      for (const { key, value: position } of entries) {
        this.events.removeSync(position);
        this.streamIndex.removeSync(key);
        this.categoryIndex.removeSync([category, position]);
      }
      this.streams.putSync(stream, { lastRevision: record.lastRevision, deleted: true });
      return undefined;
    });
    if (conflict) throw conflict;
    await this.root.flushed;
  }

  /** Removes the stream's events before `revision` from the log and the indexes, in one transaction; the stream record (its last revision) stays. */
  async truncateBefore(stream: StreamName, revision: bigint): Promise<void> {
    this.assertOpen();
    assertStreamName(stream);
    const before = toIndex(revision, 'revision');
    if (before === 0) return;
    await this.turns.run(() => {
      if (!liveStream(this.streams.get(stream))) return;
      const entries = [...this.streamIndex.getRange({ start: [stream, 0], end: [stream, before] })];
      const category = categoryOf(stream);
      for (const { key, value: position } of entries) {
        this.events.removeSync(position);
        this.streamIndex.removeSync(key);
        this.categoryIndex.removeSync([category, position]);
      }
    });
    await this.root.flushed;
  }

  async getStreamMetadata(stream: StreamName): Promise<StreamMetadata | undefined> {
    this.assertFreshRead();
    const stored = this.streamMeta.get(stream);
    return stored === undefined ? undefined : normalizeStreamMetadata(stored);
  }

  /** Stored beside the events, never in the log; `maxAge`/`maxCount` are recorded but not enforced by this adapter. */
  async setStreamMetadata(stream: StreamName, metadata: StreamMetadata): Promise<void> {
    this.assertOpen();
    assertStreamName(stream);
    const normalized = normalizeStreamMetadata(metadata);
    await this.turns.run(() => this.streamMeta.putSync(stream, normalized));
    await this.root.flushed;
  }

  /** The stream record alone (the revision readStream starts from), no event read or parsed. */
  async streamRevision(stream: StreamName): Promise<bigint | undefined> {
    this.assertFreshRead();
    return liveRevision(this.streams.get(stream));
  }

  /** The highest position ever assigned; positions of deleted events are not reused, so this never goes back. */
  async headPosition(): Promise<bigint> {
    this.assertFreshRead();
    return BigInt(this.state.get('head') ?? 0);
  }

  /**
   * From the category index, newest first: a prefix that names a whole
   * category reads one key; a narrower one (`consent-acct_1:`) scans its
   * category back to its newest event, at most LAST_POSITION_SCAN keys, after
   * which (and for a prefix without a dash) the head answers, as a bound.
   */
  async lastPositionOf(streamPrefixes: readonly string[]): Promise<bigint> {
    this.assertFreshRead();
    const head = this.state.get('head') ?? 0;
    if (streamPrefixes.length === 0 || !streamPrefixes.every((prefix) => prefix.includes('-'))) return BigInt(head);
    let last = 0;
    for (const category of new Set(streamPrefixes.map(categoryOf))) {
      const narrower = streamPrefixes.filter((prefix) => categoryOf(prefix) === category);
      const whole = narrower.includes(category);
      let scanned = 0;
      for (const [, at] of this.categoryIndex.getKeys({ start: [category, LAST_REVISION], end: [category, last], reverse: true })) {
        if (whole || narrower.some((prefix) => this.events.get(at)?.stream.startsWith(prefix))) {
          last = Math.max(last, at);
          break;
        }
        if (++scanned >= LAST_POSITION_SCAN) return BigInt(head);
      }
    }
    return BigInt(last);
  }

  async ping(): Promise<void> {
    this.assertOpen();
    this.state.get('head');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.root.flushed;
    await this.root.close();
  }

  /** Indexes every event of a format-1 log by category; runs inside the upgrade's write transaction. */
  private buildCategoryIndex(): void {
    for (const { key, value } of this.events.getRange({ start: 1 })) {
      this.categoryIndex.putSync([categoryOf(value.stream), key], PRESENT as Uint8Array);
    }
  }

  /** The next events after `position` on streams that `matches`, scanning the log. */
  private readMatchingAfter(matches: (stream: string) => boolean, position: number, limit: number): SubscriptionRead {
    const batch = this.readAfter(position, limit);
    return { events: batch.filter((event) => matches(event.streamName)), through: batch.length > 0 ? Number(batch[batch.length - 1].position) : position };
  }

  /**
   * The next events after `position` in `categories` on streams that `matches`,
   * from the category index. Everything is read synchronously, so in one LMDB
   * read snapshot: the head first, then each category's positions up to it, so
   * an event at or below `through` that is not returned does not match.
   */
  private readCategoriesAfter(categories: string[], matches: (stream: string) => boolean, position: number, limit: number): SubscriptionRead {
    const head = this.state.get('head') ?? 0;
    if (head <= position) return { events: [], through: position };
    let positions: number[] = [];
    // Up to `through` every category was read completely: a category that filled its `limit` only up to its last position.
    let through = head;
    for (const category of categories) {
      let count = 0;
      let last = position;
      for (const [, at] of this.categoryIndex.getKeys({ start: [category, position + 1], end: [category, head + 1], limit })) {
        positions.push(at);
        count++;
        last = at;
      }
      if (count === limit && last < through) through = last;
    }
    if (categories.length > 1) {
      positions = positions.filter((at) => at <= through).sort((a, b) => a - b);
      if (positions.length > limit) {
        positions.length = limit;
        through = positions[limit - 1];
      }
    }
    const events: RecordedEvent[] = [];
    for (const at of positions) {
      const stored = this.events.get(at);
      if (stored !== undefined && matches(stored.stream)) events.push(toRecorded(at, stored));
    }
    return { events, through };
  }

  private readAfter(position: number, limit: number | undefined): RecordedEvent[] {
    const out: RecordedEvent[] = [];
    for (const { key, value } of this.events.getRange({ start: position + 1, limit })) {
      out.push(toRecorded(key, value));
    }
    return out;
  }

  private eventAt(position: number): RecordedEvent {
    const stored = this.events.get(position);
    // The index and the log are written and removed in the same transactions.
    if (stored === undefined) throw new Error(`event store is inconsistent: index points at missing position ${position}`);
    return toRecorded(position, stored);
  }

  private notifyAppended(stream: string): void {
    for (const listener of [...this.appendListeners]) listener(stream);
  }

  /**
   * Open, and the reads that follow see every commit acknowledged before this
   * call, this process's and other processes' alike. lmdb-js reuses one read
   * transaction until a setTimeout(0) renews it, so within one event-loop turn
   * (and across the I/O callbacks of the next one, which run before timers) a
   * read could otherwise miss an append another process acknowledged
   * meanwhile: a key revoked by another instance, the last event of a stream
   * two processes share. Renewing costs ~0.6 µs per read here.
   */
  private assertFreshRead(): void {
    this.assertOpen();
    this.root.resetReadTxn();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

/**
 * lmdb-js's `flushed` resolves once every write queued before it is asked for
 * is flushed to disk; it is a thenable evaluated when `then` is called, so it
 * is turned into a promise at once. A failure surfaces at the commit too, so
 * this promise never goes unhandled.
 */
function flushOf(root: RootDatabase): Promise<unknown> {
  const flushed = new Promise<unknown>((resolve, reject) => {
    root.flushed.then(resolve, reject);
  });
  flushed.catch(() => undefined);
  return flushed;
}

/** What one read of a subscription found: the matching events, and how far the log was looked at. */
interface SubscriptionRead {
  events: RecordedEvent[];
  /** Every event up to this position was considered; the checkpoint moves here once `events` are delivered. */
  through: number;
}

interface SubscriptionSource {
  /** Matching events after `position`: at most `limit`, in position order. */
  read(position: number, limit: number): SubscriptionRead;
  flushed(): PromiseLike<unknown>;
  isClosed(): boolean;
  /** Registers a wake-up for the next append by this process to a followed stream; returns the unregister function. */
  onAppend(listener: () => void): () => void;
}

/**
 * History and live events come from the same loop reading the log after the
 * last delivered position, so there is no hand-over between a catch-up phase
 * and a live phase where an event could be skipped or seen twice. Positions
 * are assigned inside serialised write transactions, so a snapshot that holds
 * position N holds every earlier one that still exists.
 */
class EmbeddedSubscription implements Subscription {
  readonly done: Promise<void>;
  private stopped = false;
  private wake: (() => void) | undefined;
  /** True while the handler's synchronous part runs: see stop(). */
  private inHandlerCall = false;

  constructor(
    private readonly source: SubscriptionSource,
    after: number,
    handler: EventHandler,
  ) {
    this.done = this.run(after, handler);
  }

  /**
   * Delivers nothing more, then waits for the loop to end, an event the
   * handler is handling included. Called from inside the handler, waiting for
   * the loop would wait for the caller itself: that call is recognised by a
   * flag set while the handler's synchronous part runs (a handler's first
   * statements, up to its first `await`, and whatever they call), and returns
   * at once. A call after the handler's first await cannot be told from a
   * call by anyone else (module shutdown, `close()`), which must wait for the
   * handler; it waits, so a handler that stops its own subscription after an
   * await must not await that stop (`void subscription.stop()`). No
   * AsyncLocalStorage: in Node 20 one turns on promise hooks for every promise
   * of the process, a few per cent of each request's CPU (ADR 0028).
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    if (this.inHandlerCall) return;
    await this.done.catch(() => undefined);
  }

  private async run(after: number, handler: EventHandler): Promise<void> {
    // Start on a later tick: the caller gets the Subscription (and can attach to `done`) before any handler runs.
    await Promise.resolve();
    let checkpoint = after;
    while (!this.shouldStop()) {
      const { events: batch, through } = this.source.read(checkpoint, SUBSCRIPTION_BATCH_SIZE);
      if (batch.length === 0) {
        checkpoint = through;
        await this.idle();
        continue;
      }
      // Wait for this process's pending flush so a handler never acts on one of our
      // appends that a power cut could still take back. (The store opens without
      // overlappingSync, so a readable commit is already synced; this keeps the rule
      // explicit should that option ever change.)
      await this.source.flushed();
      // A batch is up to 256 events, and a pipelined handler's await costs only a microtask: delivered at once,
      // a batch held the loop for several milliseconds per follower (ADR 0049).
      let since = performance.now();
      for (const event of batch) {
        if (performance.now() - since >= DELIVERY_SLICE_MS) {
          await nextTurn();
          since = performance.now();
        }
        if (this.shouldStop()) return;
        checkpoint = Number(event.position);
        let handled: Promise<void> | void;
        this.inHandlerCall = true;
        try {
          handled = handler(event);
        } finally {
          this.inHandlerCall = false;
        }
        await handled;
      }
      checkpoint = through;
    }
  }

  private shouldStop(): boolean {
    return this.stopped || this.source.isClosed();
  }

  /** Until this process appends, the poll interval passes (appends by other processes), or stop(). */
  private idle(): Promise<void> {
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        unregister();
        this.wake = undefined;
        resolve();
      };
      const timer = setTimeout(finish, POLL_INTERVAL_MS);
      const unregister = this.source.onAppend(finish);
      this.wake = finish;
    });
  }
}

/** An event's stored JSON text, but for its revision, which is assigned inside the write transaction. */
interface PreparedEvent {
  head: string;
  tail: string;
}

/**
 * Serialises each event once: its data and metadata are checked to be JSON
 * and become part of the text LMDB stores, so what a reader gets back is
 * exactly the JSON form whichever adapter stored it. Events of one append
 * often share their metadata object; it is serialised once.
 */
function prepareEvents(stream: string, events: NewEvent[], createdAt: number): PreparedEvent[] {
  const streamJson = JSON.stringify(stream);
  let lastMetadata: unknown;
  let lastMetadataJson = '';
  return events.map((event, index) => {
    if (typeof event.type !== 'string' || event.type.length === 0) {
      throw new InvalidParamError('event type must be a non-empty string', 'type');
    }
    const metadata = event.metadata ?? {};
    if (index === 0 || metadata !== lastMetadata) {
      lastMetadataJson = jsonText(metadata, 'metadata');
      lastMetadata = metadata;
    }
    // The fields of StoredEvent, with the revision left for the transaction to fill in.
    return {
      head: `{"id":${JSON.stringify(event.id ?? randomUUID())},"stream":${streamJson},"type":${JSON.stringify(event.type)},"revision":`,
      tail: `,"data":${jsonText(event.data, 'data')},"metadata":${lastMetadataJson},"createdAt":${createdAt}}`,
    };
  });
}

/** The JSON text of an event's data or metadata; InvalidParamError when it has none. */
function jsonText(value: unknown, field: string): string {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new InvalidParamError(`event ${field} is not JSON-serialisable: ${(error as Error).message}`, field);
  }
  if (text === undefined) throw new InvalidParamError(`event ${field} is not JSON-serialisable`, field);
  return text;
}

/** `access_log-acct_1` → `access_log-`; a name without `-` is its own category. */
function categoryOf(streamOrPrefix: string): string {
  const dash = streamOrPrefix.indexOf('-');
  return dash < 0 ? streamOrPrefix : streamOrPrefix.slice(0, dash + 1);
}

function toRecorded(position: number, stored: StoredEvent): RecordedEvent {
  return {
    id: stored.id,
    streamName: stored.stream,
    type: stored.type,
    data: stored.data,
    metadata: stored.metadata,
    revision: BigInt(stored.revision),
    position: BigInt(position),
    createdAt: new Date(stored.createdAt),
  };
}

function liveStream(record: StreamRecord | undefined): record is StreamRecord {
  return record !== undefined && !record.deleted;
}

/** The revision the expected-revision check sees: none for a missing or deleted stream. */
function liveRevision(record: StreamRecord | undefined): bigint | undefined {
  return liveStream(record) ? BigInt(record.lastRevision) : undefined;
}

function assertStreamName(stream: string): void {
  if (typeof stream !== 'string' || stream.length === 0) {
    throw new InvalidParamError('stream name must be a non-empty string', 'stream');
  }
  if (Buffer.byteLength(stream) > MAX_STREAM_NAME_BYTES) {
    throw new InvalidParamError(`stream name is longer than ${MAX_STREAM_NAME_BYTES} bytes`, 'stream');
  }
}

/**
 * What a read restricted to `prefixes` reads: whole categories from their
 * index when every prefix contains a `-` (then `matches` narrows within
 * them), else the log itself, filtered by `matches`.
 */
function filterOf(prefixes: readonly string[]): { categories: string[] | undefined; matches: (stream: string) => boolean } {
  if (prefixes.length === 0) {
    throw new InvalidParamError('streamPrefixes must name at least one prefix; omit it to receive every stream', 'streamPrefixes');
  }
  const categories = prefixes.every((prefix) => prefix.includes('-')) ? [...new Set(prefixes.map(categoryOf))] : undefined;
  return { categories, matches: (stream: string) => prefixes.some((prefix) => stream.startsWith(prefix)) };
}

function maxCountOf(maxCount: number | undefined): number | undefined {
  if (maxCount === undefined) return undefined;
  if (!Number.isSafeInteger(maxCount) || maxCount < 0) {
    throw new InvalidParamError('maxCount must be a non-negative integer', 'maxCount');
  }
  return maxCount;
}

function toIndex(value: bigint, field: string): number {
  if (value < 0n || value > BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new InvalidParamError(`${field} is out of range`, field);
  }
  return Number(value);
}
