import path from 'node:path';
import type { Provider } from '@nestjs/common';
import {
  CONFIG,
  EVENT_STORE,
  EventRegistry,
  Followers,
  JsonLogger,
  ReadModels,
  registerView,
  READ_STORE,
  ReporterHash,
  type Config,
  type EventStore,
  type ReadStore,
} from '../../../platform/src/index.js';
import { Gazetteer } from '../public/gazetteer.js';
import { ReportLandmarkHandler } from './commands/report-landmark/report-landmark.handler.js';
import { ReviewLandmarkHandler } from './commands/review-landmark/review-landmark.handler.js';
import { Landmarks } from './public/landmarks.js';
import { GeocodeLandmarksHandler, GeocodeLandmarksQuery } from './queries/geocode-landmarks/geocode-landmarks.handler.js';
import { HexcodeLandmarksHandler, HexcodeLandmarksQuery } from './queries/hexcode-landmarks/hexcode-landmarks.handler.js';
import { LandmarksAroundHandler, LandmarksAroundQuery } from './queries/landmarks-around/landmarks-around.handler.js';
import { ListLandmarkReportsHandler, ListLandmarkReportsQuery } from './queries/list-landmark-reports/list-landmark-reports.handler.js';
import { NarrationFeed } from './views/narration-feed.js';

/** Where the landmark reporters' key lives under DATA_DIR (ADR 13); every api instance mounts the same DATA_DIR (ADR 11). */
const REPORTER_KEY_FILE = path.join('secrets', 'landmark-reporter.key');

export const landmarkProviders: Provider[] = [
  {
    provide: NarrationFeed,
    inject: [EVENT_STORE, READ_STORE, EventRegistry, JsonLogger, ReadModels, Followers],
    useFactory: (events: EventStore, readStore: ReadStore, registry: EventRegistry, logger: JsonLogger, readModels: ReadModels, followers: Followers) =>
      registerView(new NarrationFeed(events, readStore, registry, logger), NarrationFeed.readModel, readModels, followers),
  },
  { provide: Landmarks, inject: [Gazetteer, NarrationFeed], useFactory: (gazetteer: Gazetteer, feed: NarrationFeed) => new Landmarks(gazetteer, feed) },
  { provide: ReporterHash, inject: [CONFIG], useFactory: (config: Config) => ReporterHash.fromDataDir(config.dataDir, REPORTER_KEY_FILE, 'landmark-reporter') },
  // The slices' @CommandHandler and @QueryHandler classes.
  ReportLandmarkHandler,
  ReviewLandmarkHandler,
  LandmarksAroundHandler,
  HexcodeLandmarksHandler,
  GeocodeLandmarksHandler,
  ListLandmarkReportsHandler,
];

/** The landmark query classes, for the places manifest. */
export const landmarkQueries = [LandmarksAroundQuery, HexcodeLandmarksQuery, GeocodeLandmarksQuery, ListLandmarkReportsQuery];
