/**
 * The event store port. Two adapters implement it: the embedded one (LMDB under
 * DATA_DIR) and EventStoreDB. Both must pass `event-store.contract.ts`.
 *
 * Positions and revisions are bigints because EventStoreDB's are 64-bit.
 * A stream revision counts from 0 (the first event of a stream has revision 0n).
 * A global position is strictly increasing over the whole log; the embedded
 * store numbers events 1, 2, 3…, EventStoreDB uses its commit position.
 */

export type StreamName = string;

/** An event to append. `type` is a stable string, never a class name. */
export interface NewEvent<Type extends string = string, Data = Record<string, unknown>> {
  type: Type;
  data: Data;
  metadata?: Record<string, unknown>;
  /** UUID; generated when absent. EventStoreDB uses it for idempotent appends. */
  id?: string;
}

export interface RecordedEvent<Type extends string = string, Data = Record<string, unknown>> {
  id: string;
  streamName: StreamName;
  type: Type;
  data: Data;
  metadata: Record<string, unknown>;
  revision: bigint;
  position: bigint;
  createdAt: Date;
}

/**
 * `no_stream`: the stream must not exist; `stream_exists`: it must;
 * `any`: no check; a bigint: the stream's last revision must be exactly that.
 */
export type ExpectedRevision = 'any' | 'no_stream' | 'stream_exists' | bigint;

export interface AppendResult {
  /** Revision of the last event written. */
  nextExpectedRevision: bigint;
  /** Global position of the last event written. */
  position: bigint;
}

export interface ReadStreamOptions {
  /** First revision to read (inclusive); default 0n for forwards, the end for backwards. */
  fromRevision?: bigint;
  direction?: 'forwards' | 'backwards';
  maxCount?: number;
}

export interface ReadAllOptions {
  /** Read events strictly after this position; default: from the start. */
  after?: bigint;
  /** At most this many events (the matching ones, when `streamPrefixes` is given). */
  maxCount?: number;
  /**
   * Only events whose stream name starts with one of these (at least one).
   * The embedded store reads them from its category index when every prefix
   * contains a `-`, so what such a read costs grows with those streams, not
   * with the log: the in-memory views that start from the beginning rely on
   * this (docs/architecture.md, "Start-up"). EventStoreDB filters on the client.
   */
  streamPrefixes?: readonly string[];
}

export interface SubscribeOptions {
  /** Deliver events strictly after this checkpoint; undefined means from the very start. */
  after?: bigint;
  /** Only events whose stream name starts with one of these prefixes (server-side where possible). */
  streamPrefixes?: string[];
}

/**
 * A catch-up subscription: first replays history after the checkpoint, then
 * follows live appends. The handler is awaited before the next event is
 * delivered, so events arrive one at a time in global order.
 */
export interface Subscription {
  /** Resolves when the subscription stops; rejects if the handler or the source failed. */
  readonly done: Promise<void>;
  /**
   * Delivers nothing more and resolves once the loop has ended, the event being
   * handled included. From inside the handler: a call before the handler's
   * first `await` returns at once; after it, do not await the stop (it would
   * wait for the handler that awaits it).
   */
  stop(): Promise<void>;
}

export type EventHandler = (event: RecordedEvent) => Promise<void> | void;

export interface StreamMetadata {
  /** Events older than this many seconds may be dropped by the store. */
  maxAge?: number;
  maxCount?: number;
  /** Application-defined entries (snake_case keys). */
  custom?: Record<string, unknown>;
}

export interface EventStore {
  append(stream: StreamName, events: NewEvent[], expectedRevision: ExpectedRevision): Promise<AppendResult>;
  /** Throws StreamNotFoundError when the stream does not exist or was deleted. */
  readStream(stream: StreamName, options?: ReadStreamOptions): Promise<RecordedEvent[]>;
  readAll(options?: ReadAllOptions): Promise<RecordedEvent[]>;
  subscribeToAll(options: SubscribeOptions, handler: EventHandler): Subscription;
  /** Removes the stream; later reads of it throw StreamNotFoundError and a new append may recreate it. */
  deleteStream(stream: StreamName, expectedRevision?: ExpectedRevision): Promise<void>;
  /**
   * Drops the stream's events before `revision` (access-trail retention,
   * docs/adr/0024: they were archived first). Revisions are kept: the stream
   * continues its numbering, and a read from revision 0 starts at `revision`.
   * EventStoreDB: the `$tb` stream metadata; embedded: the events leave the log.
   */
  truncateBefore(stream: StreamName, revision: bigint): Promise<void>;
  getStreamMetadata(stream: StreamName): Promise<StreamMetadata | undefined>;
  setStreamMetadata(stream: StreamName, metadata: StreamMetadata): Promise<void>;
  /**
   * Revision of the stream's last event; undefined when the stream does not
   * exist or was deleted. As fresh as readStream (an acknowledged append is
   * seen), without reading an event: what a per-request check can afford.
   */
  streamRevision(stream: StreamName): Promise<bigint | undefined>;
  /** Position of the last event in the log (0n when empty). */
  headPosition(): Promise<bigint>;
  /**
   * Position of the last event on streams starting with one of `streamPrefixes`
   * (0n when there is none): what a filtered follower is measured against (its
   * lag), since it never sees the rest of the log. Optional: an adapter that
   * cannot answer it cheaply leaves it out, and the lag is taken against the head.
   */
  lastPositionOf?(streamPrefixes: readonly string[]): Promise<bigint>;
  /** Throws when the backend is unreachable; used by /health. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const EVENT_STORE = Symbol('EventStore');
