import { Global, Inject, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { CLOCK, CONFIG, JsonLogger, type Clock, type Config } from '../../platform/src/index.js';
import { WEATHER_CONDITIONS } from '../../routing/src/index.js';
import { AlertLog, WeatherAlerts } from './alerts/alert-log.js';
import { CapFeedPoller } from './feeds/cap-feed-poller.js';
import { OpenMeteoProvider } from './forecast/open-meteo.provider.js';
import { RouteWeather } from './forecast/precipitation-forecast.js';
import { PRECIPITATION_PROVIDER, type PrecipitationProvider } from './forecast/precipitation-provider.port.js';
import { GetAlertsController } from './queries/get-alerts/get-alerts.controller.js';
import { GetAlertsHandler } from './queries/get-alerts/get-alerts.handler.js';
import { GetPrecipitationForecastController } from './queries/get-precipitation-forecast/get-precipitation-forecast.controller.js';
import { GetPrecipitationForecastHandler } from './queries/get-precipitation-forecast/get-precipitation-forecast.handler.js';

export const weatherProviders = [
  { provide: AlertLog, inject: [CONFIG], useFactory: (config: Config) => AlertLog.in(config.dataDir) },
  { provide: WeatherAlerts, inject: [AlertLog, CONFIG], useFactory: (log: AlertLog, config: Config) => new WeatherAlerts(log, config.weather.capFeeds.length > 0) },
  {
    provide: PRECIPITATION_PROVIDER,
    inject: [CONFIG, CLOCK],
    useFactory: (config: Config, clock: Clock): PrecipitationProvider | null => (config.weather.forecastUrl ? new OpenMeteoProvider(config.weather.forecastUrl, () => clock.now().getTime()) : null),
  },
  {
    provide: WEATHER_CONDITIONS,
    inject: [PRECIPITATION_PROVIDER, WeatherAlerts, CLOCK, JsonLogger],
    useFactory: (provider: PrecipitationProvider | null, alerts: WeatherAlerts, clock: Clock, logger: JsonLogger) =>
      new RouteWeather(provider, alerts, () => clock.now().getTime(), (error) => logger.error({ event: 'weather.forecast_failed', message: error.message }, 'weather')),
  },
  {
    provide: CapFeedPoller,
    inject: [CONFIG, AlertLog, JsonLogger],
    useFactory: (config: Config, log: AlertLog, logger: JsonLogger) =>
      new CapFeedPoller(config.weather.capFeeds, log, { allowPrivate: config.webhookAllowPrivateUrls }, {
        info: (fields) => logger.info(fields),
        error: (fields) => logger.error(fields, 'weather'),
      }),
  },
];

/**
 * Weather (docs/adr/0026): CAP alerts (the alert log and its fold), the
 * precipitation forecast behind its port, and routing's WeatherConditions
 * port (global, so the routing module finds it without importing weather).
 */
@Global()
@Module({
  controllers: [GetAlertsController, GetPrecipitationForecastController],
  providers: [...weatherProviders, GetAlertsHandler, GetPrecipitationForecastHandler],
  exports: [WeatherAlerts, WEATHER_CONDITIONS, PRECIPITATION_PROVIDER],
})
export class WeatherModule implements OnModuleInit, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(CapFeedPoller) private readonly poller: CapFeedPoller,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  onModuleInit(): void {
    if (this.config.weather.capFeeds.length === 0) return;
    const poll = () => void this.poller.pollAll();
    setImmediate(poll);
    this.timer = setInterval(poll, this.config.weather.capPollMinutes * 60_000);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.poller.close();
  }
}
