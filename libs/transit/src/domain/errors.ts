import { DomainError } from '../../../platform/src/errors.js';

/** No transit feed has been imported: "no route" would be a lie. */
export class TransitNotLoadedError extends DomainError {
  readonly code = 'DATASET_NOT_LOADED';
  readonly status = 503;
  constructor() {
    super('no transit feed is imported yet; the operator runs `npm run ops -- import:gtfs FEED.zip`');
  }
}

/**
 * The planner threads cannot take the request now (queue full, a thread
 * failed under it, or it waited too long): try again shortly. The answer
 * carries Retry-After (RFC 9110 §10.2.3).
 */
export class TransitBusyError extends DomainError {
  readonly code = 'TRANSIT_BUSY';
  readonly status = 503;
  constructor(
    message: string,
    override readonly retryAfterSeconds = 1,
  ) {
    super(message);
  }
}
