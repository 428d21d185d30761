import { DomainError, InvalidParamError } from '../../../platform/src/errors.js';

export class InvalidArchiveNameError extends InvalidParamError {
  constructor(message: string) {
    super(message, 'name');
  }
}

export class ArchiveNotFoundError extends DomainError {
  readonly code = 'NOT_FOUND';
  readonly status = 404;
  constructor(name: string) {
    super(`no tile archive named "${name}"; GET /v2/tiles lists the archives`);
  }
}

/** The archive is there but not in the state the client's If-Match / If-Unmodified-Since asked for (RFC 9110 §13.1.1). */
export class PreconditionFailedError extends DomainError {
  readonly code = 'PRECONDITION_FAILED';
  readonly status = 412;
}

/** RFC 9110 §15.5.17; the caller also sets `Content-Range: bytes *\/size` so the client learns the length. */
export class RangeNotSatisfiableError extends DomainError {
  readonly code = 'RANGE_NOT_SATISFIABLE';
  readonly status = 416;
  constructor(readonly size: number) {
    super(`the archive has ${size} bytes; the requested range starts beyond it`);
  }
}
