import { DomainError } from '../../../platform/src/errors.js';

/** No PRECIPITATION_FORECAST_URL: the forecast is not invented. */
export class ForecastNotConfiguredError extends DomainError {
  readonly code = 'FORECAST_NOT_CONFIGURED';
  readonly status = 503;
  constructor() {
    super('no precipitation forecast provider is configured (PRECIPITATION_FORECAST_URL)');
  }
}

/** The provider failed, timed out or answered nonsense. */
export class ForecastUnavailableError extends DomainError {
  readonly code = 'FORECAST_UNAVAILABLE';
  readonly status = 503;
}
