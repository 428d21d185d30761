import type { ContextManifest } from '../../platform/src/index.js';
import { GetAlertsQuery } from './queries/get-alerts/get-alerts.handler.js';
import { GetPrecipitationForecastQuery } from './queries/get-precipitation-forecast/get-precipitation-forecast.handler.js';

/**
 * Weather (issue #16, docs/adr/0026): no events in the event store. CAP
 * messages go to the weather alert log (alerts/alert-log.ts), forecasts are
 * read through from the provider.
 */
export const weatherManifest: ContextManifest = {
  name: 'weather',
  events: [],
  queries: [GetAlertsQuery, GetPrecipitationForecastQuery],
};
