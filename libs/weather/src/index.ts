export { weatherManifest } from './manifest.js';
export { WeatherModule, weatherProviders } from './weather.module.js';
export { WeatherAlerts, type AlertSource } from './public/alert-log.js';
export { weatherImportCli, type AlertStoreTarget } from './public/weather-import.cli.js';
export type { ImportOutcome } from './public/import-alerts.js';
export { PRECIPITATION_PROVIDER, type PrecipitationProvider, type PointForecast } from './forecast/precipitation-provider.port.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { weatherContext } from './context.js';
