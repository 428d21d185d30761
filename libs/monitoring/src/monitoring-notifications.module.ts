import { Module } from '@nestjs/common';
import { DATA_KEY_VAULT, EVENT_STORE, EventRegistry, type DataKeyVault, type EventStore } from '../../platform/src/index.js';
import { LocationSealing } from './location-stream/location-sealing.js';
import { MonitoringNotifications } from './monitoring-notifications.js';

/**
 * The monitoring context's webhook notification source alone, for the worker
 * (which fans notifications out and serves no HTTP): the worker imported the
 * whole MonitoringModule before, and with it the command and query handlers
 * and the geofence view of a role that serves no request.
 */
@Module({
  providers: [
    {
      provide: MonitoringNotifications,
      inject: [EVENT_STORE, EventRegistry, DATA_KEY_VAULT],
      useFactory: (events: EventStore, registry: EventRegistry, vault: DataKeyVault) => new MonitoringNotifications(events, registry, new LocationSealing(vault)),
    },
  ],
  exports: [MonitoringNotifications],
})
export class MonitoringNotificationsModule {}
