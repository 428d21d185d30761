export { weatherManifest } from './manifest.js';
export { WeatherModule, weatherProviders } from './weather.module.js';
export { WeatherAlerts, AlertRecorder, migrateAlertLog, type AlertSource } from './alerts/alert-log.js';
export { CapAlertView } from './alerts/alert-view.js';
export { weatherImportCli, type AlertStoreTarget } from './alerts/weather-import.cli.js';
export { importAlerts, type ImportOutcome } from './alerts/import-alerts.js';
export { parseCap, CapError, type CapAlert } from './cap/parse-cap.js';
export { readCap } from './cap/read-cap.js';
export { RouteWeather } from './forecast/precipitation-forecast.js';
export { OpenMeteoProvider } from './forecast/open-meteo.provider.js';
export { PRECIPITATION_PROVIDER, type PrecipitationProvider, type PointForecast } from './forecast/precipitation-provider.port.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { weatherContext } from './context.js';
