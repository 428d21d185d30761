import { Inject, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { DATASET_STORE, JsonLogger, type DatasetStore } from '../../platform/src/index.js';
import { AccountsModule } from '../../accounts/src/index.js';
import { Gazetteer } from './public/gazetteer.js';
import { ReportLandmarkController } from './landmarks/commands/report-landmark/report-landmark.controller.js';
import { ReviewLandmarkController } from './landmarks/commands/review-landmark/review-landmark.controller.js';
import { Landmarks } from './landmarks/public/landmarks.js';
import { landmarkProviders } from './landmarks/landmarks.providers.js';
import { GeocodeLandmarksController } from './landmarks/queries/geocode-landmarks/geocode-landmarks.controller.js';
import { HexcodeLandmarksController } from './landmarks/queries/hexcode-landmarks/hexcode-landmarks.controller.js';
import { LandmarksAroundController } from './landmarks/queries/landmarks-around/landmarks-around.controller.js';
import { ListLandmarkReportsController } from './landmarks/queries/list-landmark-reports/list-landmark-reports.controller.js';
import { SearchPlacesController } from './queries/search-places/search-places.controller.js';
import { SearchPlacesHandler } from './queries/search-places/search-places.handler.js';

/** Places, search and landmarks (interface.md, "Addresses, hex codes and search": GET /v2/search, the landmark endpoints). */
@Module({
  imports: [AccountsModule],
  controllers: [
    SearchPlacesController,
    LandmarksAroundController,
    GeocodeLandmarksController,
    HexcodeLandmarksController,
    ReportLandmarkController,
    ReviewLandmarkController,
    ListLandmarkReportsController,
  ],
  providers: [
    {
      provide: Gazetteer,
      inject: [DATASET_STORE, JsonLogger],
      useFactory: (store: DatasetStore, logger: JsonLogger) =>
        new Gazetteer(store, { info: (fields) => logger.info(fields), error: (fields) => logger.error(fields, 'places') }),
    },
    SearchPlacesHandler,
    ...landmarkProviders,
  ],
  exports: [Gazetteer, Landmarks],
})
export class PlacesModule implements OnModuleInit, OnModuleDestroy {
  constructor(@Inject(Gazetteer) private readonly gazetteer: Gazetteer) {}

  onModuleInit(): Promise<void> {
    return this.gazetteer.start();
  }

  onModuleDestroy(): void {
    this.gazetteer.stop();
  }
}
