import { Module } from '@nestjs/common';
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
import { CreateGeofenceController } from './commands/create-geofence/create-geofence.controller.js';
import { DeleteGeofenceController } from './commands/delete-geofence/delete-geofence.controller.js';
import { FenceIndex } from './fence-index.js';
import { GeofenceFeed } from './geofence-feed.js';
import { Geofences } from './geofences.js';
import { GetGeofenceController } from './queries/get-geofence/get-geofence.controller.js';
import { ListGeofencesController } from './queries/list-geofences/list-geofences.controller.js';
import { ServiceAreaController } from './queries/service-area/service-area.controller.js';

/**
 * Geofences and service areas (interface.md, "Identity, consent, monitoring").
 * Exports the FenceIndex that ping ingestion asks for geofence_breach.
 */
@Module({
  controllers: [CreateGeofenceController, ListGeofencesController, GetGeofenceController, DeleteGeofenceController, ServiceAreaController],
  providers: [
    { provide: FenceIndex, useFactory: () => new FenceIndex() },
    {
      provide: GeofenceFeed,
      inject: [EVENT_STORE, READ_STORE, EventRegistry, FenceIndex, JsonLogger, ReadModels, Followers],
      useFactory: (events: EventStore, readStore: ReadStore, registry: EventRegistry, index: FenceIndex, logger: JsonLogger, readModels: ReadModels, followers: Followers) =>
        registerView(new GeofenceFeed(events, readStore, registry, index, logger), GeofenceFeed.readModel, readModels, followers),
    },
    {
      provide: Geofences,
      inject: [EVENT_STORE, EventRegistry, READ_STORE, FenceIndex, GeofenceFeed, CLOCK, CONFIG, { token: PROJECTION_WAITER, optional: true }],
      useFactory: (
        events: EventStore,
        registry: EventRegistry,
        readStore: ReadStore,
        index: FenceIndex,
        feed: GeofenceFeed,
        clock: Clock,
        config: Config,
        waiter?: ProjectionWaiter,
      ) => new Geofences(events, registry, readStore, index, feed, clock, config.projectionWaitMs, waiter),
    },
  ],
  exports: [FenceIndex],
})
export class GeofencesModule {}
