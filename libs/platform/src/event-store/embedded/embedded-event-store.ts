import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { open, type Database, type RootDatabase } from 'lmdb';
import { InvalidParamError } from '../../errors.js';
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
 *   streams       stream                   → StreamRecord  last revision ever written, deleted flag
 *   stream_meta   stream                   → StreamMetadata
 *   state         'head' | 'format'        → number
 *
 * Positions and revisions are kept as JS numbers inside the store (exact up to
 * 2^53, far beyond any embedded deployment) and become bigints at the port.
 *
 * Writes go through lmdb-js asynchronous transactions: every `transaction()`
 * callback queued in the same event turn runs inside ONE LMDB write
 * transaction, in call order, on the main thread while the write worker holds
 * LMDB's write lock. That gives both properties we need:
 *   - the expected-revision check and the write happen in the same write
 *     transaction, serialised against every other writer, including other
 *     processes that opened the same directory (LMDB's lock is inter-process);
 *   - concurrent appends share one commit and one fsync (group commit).
 * An append resolves only after `flushed`: with lmdb-js's default
 * `overlappingSync` a commit becomes visible before the fsync that makes it
 * durable, and the README is explicit that only `flushed` means "on disk".
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
type StateKey = 'head' | 'format';

const FORMAT_VERSION = 1;
/** LMDB's key limit is ~1978 bytes; the [stream, revision] key must fit with room to spare. */
const MAX_STREAM_NAME_BYTES = 512;
/** How often an idle subscription looks for events appended by another process. */
const POLL_INTERVAL_MS = 200;
const SUBSCRIPTION_BATCH_SIZE = 256;
const LAST_REVISION = Number.MAX_SAFE_INTEGER;

/** Lets `stop()` tell whether it was called from inside its own handler, where awaiting the loop would deadlock. */
const runningHandler = new AsyncLocalStorage<EmbeddedSubscription>();

export class EmbeddedEventStore implements EventStore {
  private readonly subscriptions = new Set<EmbeddedSubscription>();
  private readonly appendListeners = new Set<() => void>();
  private closed = false;

  private constructor(
    private readonly root: RootDatabase,
    private readonly events: Database<StoredEvent, number>,
    private readonly streamIndex: Database<number, StreamIndexKey>,
    private readonly streams: Database<StreamRecord, string>,
    private readonly streamMeta: Database<StreamMetadata, string>,
    private readonly state: Database<number, StateKey>,
  ) {}

  /** Opens (creating if needed) the store in `dir`. Several processes may open the same directory. */
  static async open(dir: string): Promise<EmbeddedEventStore> {
    mkdirSync(dir, { recursive: true });
    const root = open({ path: dir, maxDbs: 8 });
    const store = new EmbeddedEventStore(
      root,
      root.openDB<StoredEvent, number>('events', { encoding: 'json' }),
      root.openDB<number, StreamIndexKey>('stream_index', { encoding: 'json' }),
      root.openDB<StreamRecord, string>('streams', { encoding: 'json' }),
      root.openDB<StreamMetadata, string>('stream_meta', { encoding: 'json' }),
      root.openDB<number, StateKey>('state', { encoding: 'json' }),
    );
    const format = await root.transaction(() => {
      const existing = store.state.get('format');
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
    const prepared = events.map((event) => prepareEvent(stream, event, createdAt));

    const outcome = await this.root.transaction((): AppendResult | ConcurrencyError => {
      const record = this.streams.get(stream);
      const conflict = checkExpectedRevision(stream, expectedRevision, liveRevision(record));
      if (conflict) return conflict;
      let revision = record?.lastRevision ?? -1;
      let position = this.state.get('head') ?? 0;
      for (const event of prepared) {
        revision += 1;
        position += 1;
        this.events.putSync(position, { ...event, revision });
        this.streamIndex.putSync([stream, revision], position);
      }
      this.streams.putSync(stream, { lastRevision: revision, deleted: false });
      this.state.putSync('head', position);
      return { nextExpectedRevision: BigInt(revision), position: BigInt(position) };
    });
    if (outcome instanceof ConcurrencyError) throw outcome;
    await this.root.flushed;
    this.notifyAppended();
    return outcome;
  }

  async readStream(stream: StreamName, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    this.assertOpen();
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
    this.assertOpen();
    const limit = maxCountOf(options.maxCount);
    if (limit === 0) return [];
    return this.readAfter(options.after === undefined ? 0 : toIndex(options.after, 'after'), limit);
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    this.assertOpen();
    const after = options.after === undefined ? 0 : toIndex(options.after, 'after');
    const prefixes = options.streamPrefixes;
    if (prefixes !== undefined && prefixes.length === 0) {
      throw new InvalidParamError('streamPrefixes must name at least one prefix; omit it to receive every stream', 'streamPrefixes');
    }
    const matches = prefixes ? (e: RecordedEvent) => prefixes.some((p) => e.streamName.startsWith(p)) : () => true;
    const subscription = new EmbeddedSubscription(
      {
        readAfter: (position, limit) => this.readAfter(position, limit),
        flushed: () => this.root.flushed,
        isClosed: () => this.closed,
        onAppend: (listener) => {
          this.appendListeners.add(listener);
          return () => this.appendListeners.delete(listener);
        },
      },
      after,
      matches,
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
    const conflict = await this.root.transaction((): ConcurrencyError | undefined => {
      const record = this.streams.get(stream);
      const current = liveRevision(record);
      const error = checkExpectedRevision(stream, expectedRevision, current);
      if (error || record === undefined || current === undefined) return error;
      // Collect first: removing entries while a cursor walks the same range is not safe in LMDB.
      const entries = [...this.streamIndex.getRange({ start: [stream, 0], end: [stream, LAST_REVISION] })];
      for (const { key, value: position } of entries) {
        this.events.removeSync(position);
        this.streamIndex.removeSync(key);
      }
      this.streams.putSync(stream, { lastRevision: record.lastRevision, deleted: true });
      return undefined;
    });
    if (conflict) throw conflict;
    await this.root.flushed;
  }

  async getStreamMetadata(stream: StreamName): Promise<StreamMetadata | undefined> {
    this.assertOpen();
    const stored = this.streamMeta.get(stream);
    return stored === undefined ? undefined : normalizeStreamMetadata(stored);
  }

  /** Stored beside the events, never in the log; `maxAge`/`maxCount` are recorded but not enforced by this adapter. */
  async setStreamMetadata(stream: StreamName, metadata: StreamMetadata): Promise<void> {
    this.assertOpen();
    assertStreamName(stream);
    const normalized = normalizeStreamMetadata(metadata);
    await this.root.transaction(() => this.streamMeta.putSync(stream, normalized));
    await this.root.flushed;
  }

  /** The highest position ever assigned; positions of deleted events are not reused, so this never goes back. */
  async headPosition(): Promise<bigint> {
    this.assertOpen();
    return BigInt(this.state.get('head') ?? 0);
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

  private notifyAppended(): void {
    for (const listener of [...this.appendListeners]) listener();
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('event store is closed');
  }
}

interface SubscriptionSource {
  readAfter(position: number, limit: number): RecordedEvent[];
  flushed(): PromiseLike<unknown>;
  isClosed(): boolean;
  /** Registers a wake-up for the next append by this process; returns the unregister function. */
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

  constructor(
    private readonly source: SubscriptionSource,
    after: number,
    matches: (event: RecordedEvent) => boolean,
    handler: EventHandler,
  ) {
    this.done = this.run(after, matches, handler);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    if (runningHandler.getStore() === this) return;
    await this.done.catch(() => undefined);
  }

  private async run(after: number, matches: (event: RecordedEvent) => boolean, handler: EventHandler): Promise<void> {
    // Start on a later tick: the caller gets the Subscription (and can attach to `done`) before any handler runs.
    await Promise.resolve();
    let checkpoint = after;
    while (!this.shouldStop()) {
      const batch = this.source.readAfter(checkpoint, SUBSCRIPTION_BATCH_SIZE);
      if (batch.length === 0) {
        await this.idle();
        continue;
      }
      // With overlappingSync a commit is readable before its fsync. Wait for this
      // process's pending flush so a handler never acts on one of our appends that
      // a power cut could still take back. (Another process acks its appends only
      // after its own flush; we may see those a moment before that.)
      await this.source.flushed();
      for (const event of batch) {
        if (this.shouldStop()) return;
        checkpoint = Number(event.position);
        if (matches(event)) await runningHandler.run(this, () => handler(event));
      }
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

function prepareEvent(stream: string, event: NewEvent, createdAt: number): Omit<StoredEvent, 'revision'> {
  if (typeof event.type !== 'string' || event.type.length === 0) {
    throw new InvalidParamError('event type must be a non-empty string', 'type');
  }
  return {
    id: event.id ?? randomUUID(),
    stream,
    type: event.type,
    data: jsonCopy(event.data, 'data'),
    metadata: jsonCopy(event.metadata ?? {}, 'metadata'),
    createdAt,
  };
}

/** What a reader gets back is exactly the JSON form, whichever adapter stored it. */
function jsonCopy(value: unknown, field: string): Record<string, unknown> {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new InvalidParamError(`event ${field} is not JSON-serialisable: ${(error as Error).message}`, field);
  }
  if (text === undefined) throw new InvalidParamError(`event ${field} is not JSON-serialisable`, field);
  return JSON.parse(text) as Record<string, unknown>;
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
