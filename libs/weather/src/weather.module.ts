import { Global, Inject, Module, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CLOCK, CommandPipeline, CONFIG, EVENT_STORE, EventRegistry, Followers, JsonLogger, READ_STORE, ReadModels, registerView, type Clock, type Config, type EventStore, type ReadStore } from '../../platform/src/index.js';
import { WEATHER_CONDITIONS } from '../../routing/src/index.js';
import { AlertRecorder, migrateAlertLog, WeatherAlerts } from './public/alert-log.js';
import { CapAlertView } from './public/alert-view.js';
import { recordAlerts, RecordAlertsCommand, RecordAlertsHandler } from './commands/record-alerts/record-alerts.handler.js';
import { CapFeedPoller } from './feeds/cap-feed-poller.js';
import { FeedPolls } from './feeds/feed-polls.js';
import { OpenMeteoProvider } from './forecast/open-meteo.provider.js';
import { RouteWeather } from './forecast/precipitation-forecast.js';
import { PRECIPITATION_PROVIDER, type PrecipitationProvider } from './forecast/precipitation-provider.port.js';
import { GetAlertsController } from './queries/get-alerts/get-alerts.controller.js';
import { GetAlertsHandler } from './queries/get-alerts/get-alerts.handler.js';
import { GetPrecipitationForecastController } from './queries/get-precipitation-forecast/get-precipitation-forecast.controller.js';
import { GetPrecipitationForecastHandler } from './queries/get-precipitation-forecast/get-precipitation-forecast.handler.js';

export const weatherProviders = [
  {
    provide: CapAlertView,
    inject: [EVENT_STORE, EventRegistry, JsonLogger, ReadModels, Followers],
    useFactory: (events: EventStore, registry: EventRegistry, logger: JsonLogger, readModels: ReadModels, followers: Followers) =>
      registerView(new CapAlertView(events, registry, logger), CapAlertView.readModel, readModels, followers),
  },
  { provide: FeedPolls, inject: [READ_STORE, CONFIG], useFactory: (readStore: ReadStore, config: Config) => new FeedPolls(readStore, config.weather.capFeeds) },
  { provide: WeatherAlerts, inject: [CapAlertView, CONFIG], useFactory: (view: CapAlertView, config: Config) => new WeatherAlerts(view, config.weather.capFeeds.length > 0) },
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
];

/**
 * The record-alerts command's handler and the recorder that dispatches it,
 * imported by the HTTP module and the worker module: Nest builds one module
 * once, so the all-in-one process registers the handler once.
 */
@Module({
  providers: [
    RecordAlertsHandler,
    { provide: AlertRecorder, inject: [CommandBus], useFactory: (commands: CommandBus) => new AlertRecorder((command) => commands.execute(new RecordAlertsCommand(command))) },
  ],
  exports: [AlertRecorder],
})
export class AlertRecordingModule {}

/**
 * Weather (docs/adr/0026): CAP alerts (events on the alert stream, the book a follower view), the
 * precipitation forecast behind its port, and routing's WeatherConditions
 * port (global, so the routing module finds it without importing weather).
 */
@Global()
@Module({
  controllers: [GetAlertsController, GetPrecipitationForecastController],
  imports: [AlertRecordingModule],
  providers: [...weatherProviders, GetAlertsHandler, GetPrecipitationForecastHandler],
  exports: [WeatherAlerts, WEATHER_CONDITIONS, PRECIPITATION_PROVIDER],
})
export class WeatherModule implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Inject(CapAlertView) private readonly view: CapAlertView,
    @Inject(CommandPipeline) private readonly pipeline: CommandPipeline,
    @Inject(JsonLogger) private readonly logger: JsonLogger,
  ) {}

  /** The book is folded before the first request. */
  async onModuleInit(): Promise<void> {
    await this.view.start();
  }

  /**
   * A legacy alert log is moved onto the alert stream once (docs/adr/0026),
   * through the pipeline itself, as other start-up commands are (CommandBus
   * knows its handlers only once every module has bootstrapped).
   */
  async onApplicationBootstrap(): Promise<void> {
    const migration = await migrateAlertLog(this.config.dataDir, new AlertRecorder((command) => this.pipeline.run(recordAlerts, command)));
    if (migration) this.logger.info({ event: 'weather.alert_log_migrated', alerts: migration.migrated });
  }
}


/**
 * Weather's background work, in the worker role only: the CAP feed poller
 * (WEATHER_CAP_FEEDS, every WEATHER_CAP_POLL_MINUTES). Accepted alerts go
 * onto the alert stream through CommandBus, where the api processes' views
 * follow them; each poll's outcome goes to the read store (FeedPolls), which
 * GET /v2/weather/alerts reads.
 */
@Module({
  imports: [AlertRecordingModule],
  providers: [
    { provide: FeedPolls, inject: [READ_STORE, CONFIG], useFactory: (readStore: ReadStore, config: Config) => new FeedPolls(readStore, config.weather.capFeeds) },
    {
      provide: CapFeedPoller,
      inject: [CONFIG, AlertRecorder, FeedPolls, JsonLogger],
      useFactory: (config: Config, recorder: AlertRecorder, polls: FeedPolls, logger: JsonLogger) =>
        new CapFeedPoller(
          config.weather.capFeeds,
          recorder,
          { allowPrivate: config.webhookAllowPrivateUrls },
          { info: (fields) => logger.info(fields), error: (fields) => logger.error(fields, 'weather') },
          undefined,
          undefined,
          (feed, poll) => polls.record(feed, poll),
        ),
    },
  ],
})
export class WeatherWorkerModule implements OnApplicationBootstrap, OnModuleDestroy {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @Inject(CapFeedPoller) private readonly poller: CapFeedPoller,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  onApplicationBootstrap(): void {
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
