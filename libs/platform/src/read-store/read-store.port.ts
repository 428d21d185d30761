/**
 * The read-store port: where projections keep the read models queries serve.
 * Adapters: embedded (LMDB under DATA_DIR) and MongoDB. Both pass
 * `read-store.contract.ts`.
 *
 * Delivery from the event store is at least once, so every write carries the
 * global position of the event that caused it; a write at or below the
 * position a document already records is skipped (idempotent projections).
 */

export type Scalar = string | number | boolean | null;

/** A read-model document. `id` is unique within its collection. */
export interface Doc {
  id: string;
  [field: string]: unknown;
}

export interface Stored<T extends Doc> {
  doc: T;
  /** Global position of the last event applied to this document. */
  position: bigint;
}

/**
 * An index over one or more top-level fields, in order. Queries name equality
 * fields that form a prefix of an index, and optionally a range on the next
 * field, which is also the sort order.
 */
export interface IndexSpec {
  name: string;
  fields: string[];
}

export interface Range {
  gt?: Scalar;
  gte?: Scalar;
  lt?: Scalar;
  lte?: Scalar;
}

export interface Query {
  /** The index to use (required: no collection scans). */
  index: string;
  /** Values for the index's leading fields, in index order. */
  equals?: Scalar[];
  /** A range on the index field that follows the `equals` prefix. */
  range?: Range;
  direction?: 'asc' | 'desc';
  /** At most this many documents (adapters cap it at 1000). */
  limit?: number;
  /** Opaque cursor from a previous page's `nextCursor`. */
  cursor?: string;
}

export interface Page<T extends Doc> {
  items: T[];
  nextCursor: string | null;
}

/** What an `apply` callback may answer: the new document, or null to delete it. */
export type Evolve<T extends Doc> = (current: T | undefined) => T | null;

export interface ReadCollection<T extends Doc> {
  readonly name: string;
  get(id: string): Promise<T | undefined>;
  getStored(id: string): Promise<Stored<T> | undefined>;
  /**
   * Several documents by id (at most 1000), answered in the order asked,
   * undefined for an id not there. One read: a round trip in MongoDB; the
   * embedded store, whose gets are synchronous, waits for a turn of the event
   * loop first, as between the batches of a scan, so that reading many named
   * documents a slice at a time never holds the loop longer than a slice.
   */
  getMany(ids: readonly string[]): Promise<Array<T | undefined>>;
  /**
   * Idempotent read-modify-write: when the document's recorded position is
   * below `position`, stores `evolve(current)` (or deletes on null) with that
   * position and answers true; otherwise leaves it unchanged and answers false.
   * The recorded position survives deletion, so a replayed event cannot
   * resurrect a deleted document.
   */
  apply(id: string, position: bigint, evolve: Evolve<T>): Promise<boolean>;
  find(query: Query): Promise<Page<T>>;
  /**
   * Every document the query finds, in its order, as batches of at most
   * `batch` (default 100, capped at 1000 like a page): a large read (a whole
   * book, a whole read model) streamed through an async cursor, so a caller
   * keeps one batch in hand, not the collection. Between two batches the
   * adapter waits on I/O as reading a page does: MongoDB a round trip for the
   * next batch; the embedded store (whose reads are synchronous) a turn of
   * the event loop before it reads the next batch, so that no read of any
   * size holds the loop longer than one batch and what the caller does with
   * it. Like following `nextCursor`, not a snapshot: a document written
   * meanwhile appears where the index places it when the scan gets there.
   */
  scan(query: Omit<Query, 'limit' | 'cursor'>, batch?: number): AsyncIterable<T[]>;
  count(query: Omit<Query, 'limit' | 'cursor' | 'direction'>): Promise<number>;
  /** Deletes every document matching the query (consent erasure); answers how many. */
  deleteWhere(query: Omit<Query, 'limit' | 'cursor' | 'direction'>): Promise<number>;
  /** Drops all documents and index entries (projection rebuild). */
  clear(): Promise<void>;
}

export interface ReadStore {
  /**
   * Writes called one after another take effect in call order even when each
   * is not awaited before the next (embedded: LMDB transactions run in call
   * order). MongoDB's do not promise it: its projections apply one at a time.
   */
  readonly writesInCallOrder?: boolean;
  /** Declares (idempotently) and returns a collection with its indexes. */
  collection<T extends Doc>(name: string, indexes?: IndexSpec[]): Promise<ReadCollection<T>>;
  /** Last global position a named consumer (projection, relay) fully processed. */
  getCheckpoint(name: string): Promise<bigint | undefined>;
  setCheckpoint(name: string, position: bigint): Promise<void>;
  deleteCheckpoint(name: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const READ_STORE = Symbol('ReadStore');
