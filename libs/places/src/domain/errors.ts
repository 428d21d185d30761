import { DomainError } from '../../../platform/src/errors.js';

/** No place set has been imported yet: answering "no such place" would be a lie. */
export class DatasetNotLoadedError extends DomainError {
  readonly code = 'DATASET_NOT_LOADED';
  readonly status = 503;
  constructor() {
    super('no place dataset is imported yet; the operator runs `npm run ops -- import:geonames FILE` (or import:osm)');
  }
}
