import { DomainError, InvalidParamError } from '../errors.js';

/**
 * A query named an index its collection never declared. Queries must go
 * through an index (no collection scans), so this is refused rather than
 * answered slowly.
 */
export class UnknownIndexError extends InvalidParamError {
  override readonly code = 'READ_STORE_UNKNOWN_INDEX';
  constructor(
    readonly collection: string,
    readonly index: string,
  ) {
    super(`collection ${collection} has no index named "${index}"`, 'index');
  }
}

/** A query the index cannot answer: too many equality values, a range with mixed types, a bad limit. */
export class InvalidQueryError extends InvalidParamError {
  override readonly code = 'READ_STORE_INVALID_QUERY';
}

/** A cursor that this collection, index and equality prefix did not hand out. */
export class InvalidCursorError extends InvalidParamError {
  override readonly code = 'READ_STORE_INVALID_CURSOR';
  constructor(message = 'cursor does not belong to this query') {
    super(message, 'cursor');
  }
}

/**
 * A projection produced a document no adapter may store: its id changed, it
 * uses a reserved field, or an indexed field holds something other than a
 * string, finite number, boolean or null. A bug in the projection, hence 500.
 */
export class InvalidDocumentError extends DomainError {
  readonly code = 'READ_STORE_INVALID_DOCUMENT';
  readonly status = 500;
  constructor(
    readonly collection: string,
    readonly id: string,
    reason: string,
  ) {
    super(`${collection}/${id}: ${reason}`);
  }
}

/**
 * An optimistic write kept losing to other writers on the same document
 * (only the MongoDB adapter retries; the embedded one serialises writes).
 */
export class ReadStoreContentionError extends DomainError {
  readonly code = 'READ_STORE_CONTENTION';
  readonly status = 503;
  constructor(
    readonly collection: string,
    readonly id: string,
    attempts: number,
  ) {
    super(`${collection}/${id}: gave up after ${attempts} conflicting writes`);
  }
}
