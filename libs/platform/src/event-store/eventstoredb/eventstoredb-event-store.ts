import { randomUUID } from 'node:crypto';
import {
  ANY,
  BACKWARDS,
  END,
  ErrorType,
  EventStoreDBClient,
  FORWARDS,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
  streamNameFilter,
  type AllStreamRecordedEvent,
  type AllStreamSubscription,
  type AppendExpectedRevision,
  type JSONType,
  type Position,
  type ReadPosition,
  type RecordedEvent as EsdbRecordedEvent,
  type StreamMetadata as EsdbStreamMetadata,
} from '@eventstore/db-client';
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
import { revisionLabel } from '../expected-revision.js';
import { normalizeStreamMetadata } from '../stream-metadata.js';

/**
 * The EventStoreDB adapter: a thin mapping of the port onto @eventstore/db-client.
 *
 * Global position = the event's commit position. For the appends this adapter
 * makes (implicit transactions) every event has its own commit position, equal
 * to its prepare position, so `{ commit: p, prepare: p }` resumes exactly after
 * the event at p. Events written in explicit (legacy TCP) transactions share a
 * commit position; this adapter never writes those.
 *
 * System events ($-prefixed streams or types, e.g. stream metadata, $stats)
 * never reach callers of readAll or subscribeToAll.
 *
 * Deletion is EventStoreDB's soft delete: reads of the stream then fail with
 * StreamNotFoundError and an append with `no_stream`/`any` recreates it,
 * continuing the revisions. Unlike the embedded adapter, the events stay in
 * $all until the server scavenges them.
 */

/** Stream reads on servers before 22.6 carry no $all position; the client then reports 2^64-1. */
const NO_POSITION = 2n ** 64n - 1n;
/** Returned as `position` when the server did not report one (pre-22.6 stream reads). */
export const UNKNOWN_POSITION = -1n;
const READ_ALL_PAGE = 500;
/** Keys EventStoreDB (or the client's metadata mapping) reserves; custom entries must avoid them. */
const RESERVED_METADATA_KEYS = new Set(['maxAge', 'maxCount', 'truncateBefore', 'cacheControl', 'acl']);

export class EventStoreDbEventStore implements EventStore {
  private readonly subscriptions = new Set<EventStoreDbSubscription>();

  constructor(private readonly client: EventStoreDBClient) {}

  /** Accepts `esdb://`, `esdb+discover://` and the newer `kurrentdb://`/`kdb://` spellings the config allows. */
  static connect(connectionString: string): EventStoreDbEventStore {
    return new EventStoreDbEventStore(EventStoreDBClient.connectionString(toEsdbScheme(connectionString)));
  }

  async append(stream: StreamName, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult> {
    if (events.length === 0) throw new InvalidParamError('append needs at least one event', 'events');
    const payload = events.map((event) =>
      jsonEvent({
        id: event.id ?? randomUUID(),
        type: event.type,
        data: event.data as JSONType,
        metadata: event.metadata ?? {},
      }),
    );
    try {
      const result = await this.client.appendToStream(stream, payload, {
        expectedRevision: toAppendExpected(expectedRevision),
      });
      return { nextExpectedRevision: result.nextExpectedRevision, position: toPosition(result.position) };
    } catch (error) {
      throw mapError(error, stream, expectedRevision);
    }
  }

  async readStream(stream: StreamName, options: ReadStreamOptions = {}): Promise<RecordedEvent[]> {
    const backwards = options.direction === 'backwards';
    const read = this.client.readStream(stream, {
      direction: backwards ? BACKWARDS : FORWARDS,
      fromRevision: options.fromRevision ?? (backwards ? END : START),
      // maxCount 0 still has to prove the stream exists, so read one and drop it.
      maxCount: options.maxCount === 0 ? 1 : options.maxCount,
    });
    const out: RecordedEvent[] = [];
    try {
      for await (const resolved of read) {
        if (resolved.event) out.push(toRecorded(resolved.event));
      }
    } catch (error) {
      throw mapError(error, stream);
    }
    return options.maxCount === 0 ? [] : out;
  }

  async readAll(options: ReadAllOptions = {}): Promise<RecordedEvent[]> {
    const limit = options.maxCount ?? Number.MAX_SAFE_INTEGER;
    const prefixes = options.streamPrefixes;
    if (prefixes !== undefined && prefixes.length === 0) {
      throw new InvalidParamError('streamPrefixes must name at least one prefix; omit it to receive every stream', 'streamPrefixes');
    }
    const out: RecordedEvent[] = [];
    // readAll's fromPosition is inclusive, and system events and other streams
    // are filtered here (the client offers no server-side filter on reads), so
    // read in pages and skip everything at or before the cursor.
    let cursor = options.after ?? 0n;
    while (out.length < limit) {
      let seen = 0;
      for await (const resolved of this.client.readAll({ fromPosition: resumeFrom(cursor), maxCount: READ_ALL_PAGE })) {
        seen += 1;
        const event = resolved.event;
        if (!event || event.position.commit <= cursor) continue;
        cursor = event.position.commit;
        if (isSystemEvent(event)) continue;
        if (prefixes && !prefixes.some((prefix) => event.streamId.startsWith(prefix))) continue;
        out.push(toRecorded(event));
        if (out.length >= limit) break;
      }
      if (seen < READ_ALL_PAGE) break;
    }
    return out;
  }

  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription {
    const prefixes = options.streamPrefixes;
    if (prefixes !== undefined && prefixes.length === 0) {
      throw new InvalidParamError('streamPrefixes must name at least one prefix; omit it to receive every stream', 'streamPrefixes');
    }
    const source = this.client.subscribeToAll({
      fromPosition: resumeFrom(options.after ?? 0n),
      filter: prefixes ? streamNameFilter({ prefixes }) : excludeSystemEvents(),
    });
    const subscription = new EventStoreDbSubscription(source, options.after ?? 0n, prefixes, handler);
    this.subscriptions.add(subscription);
    subscription.done.then(
      () => this.subscriptions.delete(subscription),
      () => this.subscriptions.delete(subscription),
    );
    return subscription;
  }

  /**
   * Soft delete. The client cannot send `stream_exists` for a delete (and the
   * server used to fail on it), so that case checks existence first and then
   * deletes with `any`: a delete racing a delete is harmless.
   */
  async deleteStream(stream: StreamName, expectedRevision: ExpectedRevision = 'any'): Promise<void> {
    try {
      if (expectedRevision === 'stream_exists') {
        if ((await this.lastRevision(stream)) === undefined) {
          throw new ConcurrencyError(stream, 'stream_exists', 'no_stream');
        }
        await this.client.deleteStream(stream, { expectedRevision: ANY });
        return;
      }
      await this.client.deleteStream(stream, {
        expectedRevision: expectedRevision === 'any' ? ANY : expectedRevision === 'no_stream' ? NO_STREAM : expectedRevision,
      });
    } catch (error) {
      if (expectedRevision === 'any' && isStreamNotFound(error)) return;
      throw mapError(error, stream, expectedRevision);
    }
  }

  async getStreamMetadata(stream: StreamName): Promise<StreamMetadata | undefined> {
    const { metadata } = await this.client.getStreamMetadata(stream);
    if (!metadata) return undefined;
    const { maxAge, maxCount, truncateBefore: _tb, cacheControl: _cc, acl: _acl, ...custom } = metadata;
    return normalizeStreamMetadata({ maxAge, maxCount, custom });
  }

  /**
   * Keeps the stream's truncate-before: soft delete is recorded there, and
   * writing metadata without it would bring deleted events back.
   */
  async setStreamMetadata(stream: StreamName, metadata: StreamMetadata): Promise<void> {
    const normalized = normalizeStreamMetadata(metadata);
    for (const key of Object.keys(normalized.custom ?? {})) {
      if (key.startsWith('$') || RESERVED_METADATA_KEYS.has(key)) {
        throw new InvalidParamError(`custom stream metadata key ${key} is reserved by EventStoreDB`, 'custom');
      }
    }
    const { metadata: current } = await this.client.getStreamMetadata(stream);
    const next: EsdbStreamMetadata = { ...normalized.custom, maxAge: normalized.maxAge, maxCount: normalized.maxCount };
    if (current?.truncateBefore !== undefined) next.truncateBefore = current.truncateBefore;
    await this.client.setStreamMetadata(stream, dropUndefined(next));
  }

  /** EventStoreDB's truncate-before (`$tb`), the other metadata kept; the scavenge reclaims the space. */
  async truncateBefore(stream: StreamName, revision: bigint): Promise<void> {
    const { metadata: current } = await this.client.getStreamMetadata(stream);
    if (typeof current?.truncateBefore === 'number' && BigInt(current.truncateBefore) >= revision) return;
    await this.client.setStreamMetadata(stream, dropUndefined({ ...(current ?? {}), truncateBefore: Number(revision) } as EsdbStreamMetadata));
  }

  /** The last event's revision, read backwards (EventStoreDB has no cheaper stream-head query over gRPC). */
  async streamRevision(stream: StreamName): Promise<bigint | undefined> {
    try {
      for await (const resolved of this.client.readStream(stream, { direction: BACKWARDS, fromRevision: END, maxCount: 1 })) {
        if (resolved.event) return resolved.event.revision;
      }
      return undefined;
    } catch (error) {
      const mapped = mapError(error, stream);
      if (mapped instanceof StreamNotFoundError) return undefined;
      throw mapped;
    }
  }

  /** Commit position of the last record in $all, system events included: a valid checkpoint either way. */
  async headPosition(): Promise<bigint> {
    for await (const resolved of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1 })) {
      if (resolved.event) return resolved.event.position.commit;
    }
    return 0n;
  }

  async ping(): Promise<void> {
    for await (const _ of this.client.readAll({ direction: BACKWARDS, fromPosition: END, maxCount: 1, deadline: 5_000 })) {
      // Reaching the server is the whole check.
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    await this.client.dispose();
  }

  private async lastRevision(stream: StreamName): Promise<bigint | undefined> {
    try {
      const [last] = await this.readStream(stream, { direction: 'backwards', maxCount: 1 });
      return last?.revision;
    } catch (error) {
      if (error instanceof StreamNotFoundError) return undefined;
      throw error;
    }
  }
}

class EventStoreDbSubscription implements Subscription {
  readonly done: Promise<void>;
  private stopped = false;
  /** True while the handler's synchronous part runs: see stop(). */
  private inHandlerCall = false;

  constructor(
    private readonly source: AllStreamSubscription,
    after: bigint,
    prefixes: string[] | undefined,
    handler: EventHandler,
  ) {
    this.done = this.run(after, prefixes, handler);
  }

  /**
   * As the embedded store's (embedded-event-store.ts, EmbeddedSubscription.stop):
   * a call from the handler's synchronous part does not wait for the loop; any
   * other call waits for it, an event being handled included, so a handler
   * stopping its own subscription after an await must not await that stop.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    const fromHandler = this.inHandlerCall;
    // A source that already ended (server error, handler failure) has nothing left to cancel.
    await this.source.unsubscribe().catch(() => undefined);
    if (fromHandler) return;
    await this.done.catch(() => undefined);
  }

  /** `for await` pulls the next event only after the handler settled: one at a time, in $all order. */
  private async run(after: bigint, prefixes: string[] | undefined, handler: EventHandler): Promise<void> {
    try {
      for await (const resolved of this.source) {
        if (this.stopped) return;
        const event = resolved.event;
        // The server filter already applies; these guards keep the "strictly after" and no-system-events rules exact.
        if (!event || event.position.commit <= after || isSystemEvent(event)) continue;
        if (prefixes && !prefixes.some((p) => event.streamId.startsWith(p))) continue;
        let handled: Promise<void> | void;
        this.inHandlerCall = true;
        try {
          handled = handler(toRecorded(event));
        } finally {
          this.inHandlerCall = false;
        }
        await handled;
      }
    } catch (error) {
      if (!this.stopped) throw error;
    } finally {
      if (!this.stopped) await this.source.unsubscribe().catch(() => undefined);
    }
  }
}

function toAppendExpected(expected: ExpectedRevision): AppendExpectedRevision {
  switch (expected) {
    case 'any':
      return ANY;
    case 'no_stream':
      return NO_STREAM;
    case 'stream_exists':
      return STREAM_EXISTS;
    default:
      return expected;
  }
}

function mapError(error: unknown, stream: string, expected?: ExpectedRevision): unknown {
  if (error instanceof WrongExpectedVersionError) {
    return new ConcurrencyError(stream, revisionLabel(expected ?? error.expectedVersion), revisionLabel(error.actualVersion));
  }
  if (isStreamNotFound(error)) return new StreamNotFoundError(stream);
  return error;
}

/** A hard-deleted (tombstoned) stream is, for the port, one that does not exist: this adapter never tombstones, an operator might. */
function isStreamNotFound(error: unknown): boolean {
  const type = typeof error === 'object' && error !== null ? (error as { type?: unknown }).type : undefined;
  return type === ErrorType.STREAM_NOT_FOUND || type === ErrorType.STREAM_DELETED;
}

function isSystemEvent(event: AllStreamRecordedEvent): boolean {
  return event.streamId.startsWith('$') || event.type.startsWith('$');
}

/** 0n means "from the very start"; positions are exclusive for subscriptions, inclusive for reads (callers skip ≤ p). */
function resumeFrom(after: bigint): ReadPosition {
  return after > 0n ? { commit: after, prepare: after } : START;
}

function toPosition(position: Position | undefined): bigint {
  return position === undefined || position.commit === NO_POSITION ? UNKNOWN_POSITION : position.commit;
}

function toRecorded(event: EsdbRecordedEvent): RecordedEvent {
  return {
    id: event.id,
    streamName: event.streamId,
    type: event.type,
    data: (event.isJson ? event.data : {}) as Record<string, unknown>,
    metadata: isPlainObject(event.metadata) ? event.metadata : {},
    revision: event.revision,
    position: toPosition(event.position),
    createdAt: event.created,
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function toEsdbScheme(connectionString: string): string {
  return connectionString.replace(/^(kurrentdb|kdb)(\+discover)?:\/\//, (_, _scheme: string, discover = '') => `esdb${discover}://`);
}
