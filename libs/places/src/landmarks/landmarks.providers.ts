import type { Provider } from '@nestjs/common';
import {
  CLOCK,
  CONFIG,
  EVENT_STORE,
  EventRegistry,
  Followers,
  JsonLogger,
  ReadModels,
  registerView,
  PROJECTION_WAITER,
  READ_STORE,
  type Clock,
  type Config,
  type EventStore,
  type ProjectionWaiter,
  type ReadStore,
} from '../../../platform/src/index.js';
import { Gazetteer } from '../gazetteer.js';
import { LandmarkReports } from './landmark-reports.js';
import { Landmarks } from './landmarks.js';
import { NarrationFeed } from './narration-feed.js';
import { ReporterIdentity } from './reporter-identity.js';

export const landmarkProviders: Provider[] = [
  {
    provide: NarrationFeed,
    inject: [EVENT_STORE, READ_STORE, EventRegistry, JsonLogger, ReadModels, Followers],
    useFactory: (events: EventStore, readStore: ReadStore, registry: EventRegistry, logger: JsonLogger, readModels: ReadModels, followers: Followers) =>
      registerView(new NarrationFeed(events, readStore, registry, logger), NarrationFeed.readModel, readModels, followers),
  },
  { provide: Landmarks, inject: [Gazetteer, NarrationFeed], useFactory: (gazetteer: Gazetteer, feed: NarrationFeed) => new Landmarks(gazetteer, feed) },
  { provide: ReporterIdentity, inject: [CONFIG], useFactory: (config: Config) => ReporterIdentity.fromDataDir(config.dataDir) },
  {
    provide: LandmarkReports,
    inject: [EVENT_STORE, EventRegistry, READ_STORE, Landmarks, NarrationFeed, CLOCK, CONFIG, { token: PROJECTION_WAITER, optional: true }],
    useFactory: (
      events: EventStore,
      registry: EventRegistry,
      readStore: ReadStore,
      landmarks: Landmarks,
      feed: NarrationFeed,
      clock: Clock,
      config: Config,
      waiter?: ProjectionWaiter,
    ) => new LandmarkReports(events, registry, readStore, (key) => landmarks.bySlugKey(key), clock, config.projectionWaitMs, feed, waiter),
  },
];
