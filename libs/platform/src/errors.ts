/**
 * Base of every typed error the domain raises. The HTTP exception filter maps
 * `code` and `status` into the envelope; domain code never throws HttpException.
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  /** HTTP status the filter answers with. */
  abstract readonly status: number;
  /** Field the error is about, when there is one (400s name the field). */
  readonly field?: string;
  /**
   * Machine-readable particulars a client can act on, sent as `error.details`
   * (e.g. INVALID_CODE: `{reason, suggestions}`). Plain JSON only, and never a
   * secret or a location: it goes to the client as it is.
   */
  readonly details?: Readonly<Record<string, unknown>>;
  /**
   * When to come back, in seconds, for a refusal that knows (429 throttles,
   * 503 overloads): the exception filter sends it as Retry-After (RFC 9110
   * §10.2.3) with the envelope.
   */
  readonly retryAfterSeconds?: number;

  constructor(message: string) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidParamError extends DomainError {
  readonly code: string = 'INVALID_PARAM';
  readonly status = 400;
  constructor(message: string, override readonly field?: string) {
    super(message);
  }
}

export class NotImplementedError extends DomainError {
  readonly code = 'NOT_IMPLEMENTED';
  readonly status = 501;
}

export class BackendUnavailableError extends DomainError {
  readonly code = 'SERVICE_UNAVAILABLE';
  readonly status = 503;
}

export class TimeoutError extends DomainError {
  readonly code = 'TIMEOUT';
  readonly status = 504;
}
