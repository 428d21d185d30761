import type { ContextDefinition } from '../../platform/src/index.js';
import { weatherManifest } from './manifest.js';
import { WeatherModule, WeatherWorkerModule } from './weather.module.js';

/** Forecasts and CAP alerts. What the weather context brings to the apps (apps/shared/contexts.ts). */
export const weatherContext: ContextDefinition = {
  manifest: weatherManifest,
  http: WeatherModule,
  worker: WeatherWorkerModule,
};
