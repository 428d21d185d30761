import { DomainError } from '../../../platform/src/errors.js';

/** No transit feed has been imported: "no route" would be a lie. */
export class TransitNotLoadedError extends DomainError {
  readonly code = 'DATASET_NOT_LOADED';
  readonly status = 503;
  constructor() {
    super('no transit feed is imported yet; the operator runs `npm run ops -- import:gtfs FEED.zip`');
  }
}
