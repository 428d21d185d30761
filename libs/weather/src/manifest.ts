import type { ContextManifest } from '../../platform/src/index.js';
import { CapAlertView } from './public/alert-view.js';
import { recordAlerts } from './commands/record-alerts/record-alerts.handler.js';
import { weatherEventTypes } from './event-types.js';
import { GetAlertsQuery } from './queries/get-alerts/get-alerts.handler.js';
import { GetPrecipitationForecastQuery } from './queries/get-precipitation-forecast/get-precipitation-forecast.handler.js';

/**
 * Weather (issue #16, docs/adr/0026): CAP messages are events on the alert
 * stream (the record-alerts command), folded into the alert book by a
 * follower view; forecasts are read through from the provider.
 */
export const weatherManifest: ContextManifest = {
  name: 'weather',
  events: weatherEventTypes,
  commands: [recordAlerts],
  queries: [GetAlertsQuery, GetPrecipitationForecastQuery],
  readModels: { views: [CapAlertView.readModel] },
};
