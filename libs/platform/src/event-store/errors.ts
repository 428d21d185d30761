import { DomainError } from '../errors.js';

/** The stream's current revision is not the one the writer expected. */
export class ConcurrencyError extends DomainError {
  readonly code = 'CONCURRENCY_CONFLICT';
  readonly status = 409;
  constructor(
    readonly stream: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`stream ${stream}: expected revision ${expected}, found ${actual}`);
  }
}

export class StreamNotFoundError extends DomainError {
  readonly code = 'STREAM_NOT_FOUND';
  readonly status = 404;
  constructor(readonly stream: string) {
    super(`stream ${stream} not found`);
  }
}
