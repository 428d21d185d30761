import { Module } from '@nestjs/common';
import { EVENT_STORE, EventRegistry, Followers, JsonLogger, ReadModels, READ_STORE, registerView, type EventStore, type ReadStore } from '../../../platform/src/index.js';
import { CreateGeofenceController } from './commands/create-geofence/create-geofence.controller.js';
import { CreateGeofenceHandler, RecordGeofenceHandler } from './commands/create-geofence/create-geofence.handler.js';
import { DeleteGeofenceController } from './commands/delete-geofence/delete-geofence.controller.js';
import { DeleteGeofenceHandler } from './commands/delete-geofence/delete-geofence.handler.js';
import { FenceIndex } from './public/fence-index.js';
import { GeofenceFeed } from './geofence-feed.js';
import { GetGeofenceController } from './queries/get-geofence/get-geofence.controller.js';
import { GetGeofenceHandler } from './queries/get-geofence/get-geofence.handler.js';
import { ListGeofencesController } from './queries/list-geofences/list-geofences.controller.js';
import { ListGeofencesHandler } from './queries/list-geofences/list-geofences.handler.js';
import { ServiceAreaController } from './queries/service-area/service-area.controller.js';
import { ServiceAreaHandler } from './queries/service-area/service-area.handler.js';
import { ServiceAreaThread } from './queries/service-area/service-area.thread.js';

/**
 * Geofences and service areas (interface.md, "Identity, consent, monitoring").
 * Exports the FenceIndex that ping ingestion asks for geofence_breach.
 *
 * Isochrone fences need routing's IsochroneService: the create command's
 * `inject` resolves it from the application (the API imports RoutingModule).
 * This module does not import RoutingModule itself, so the worker process,
 * which imports the monitoring context for its webhook sources, does not load
 * the road network it never uses.
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
    RecordGeofenceHandler,
    CreateGeofenceHandler,
    DeleteGeofenceHandler,
    GetGeofenceHandler,
    ListGeofencesHandler,
    ServiceAreaHandler,
    { provide: ServiceAreaThread, useFactory: () => new ServiceAreaThread() },
  ],
  exports: [FenceIndex],
})
export class GeofencesModule {}
