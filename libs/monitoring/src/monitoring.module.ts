import { Module } from '@nestjs/common';
import {
  CLOCK,
  DATA_KEY_VAULT,
  EVENT_STORE,
  EventRegistry,
  READ_STORE,
  type Clock,
  type DataKeyVault,
  type EventStore,
  type ReadStore,
} from '../../platform/src/index.js';
import { DeleteConsentDataController } from './commands/delete-consent-data/delete-consent-data.controller.js';
import { GrantConsentController } from './commands/grant-consent/grant-consent.controller.js';
import { RecordPingsController } from './commands/record-pings/record-pings.controller.js';
import { RegisterZoneController } from './commands/register-zone/register-zone.controller.js';
import { RevokeConsentController } from './commands/revoke-consent/revoke-consent.controller.js';
import { Consents } from './consents.js';
import { DriftQueries } from './drift-view.js';
import { FenceIndex } from './geofences/fence-index.js';
import { GeofencesModule } from './geofences/geofences.module.js';
import { LocationSealing } from './location-sealing.js';
import { Locations, type FenceLookup } from './locations.js';
import { MonitoringNotifications } from './monitoring-notifications.js';
import { GetConsentStatusController } from './queries/get-consent-status/get-consent-status.controller.js';
import { GetDriftController } from './queries/get-drift/get-drift.controller.js';

/** Without the geofences module (unit wiring), pings are evaluated against no fences. */
const NO_FENCES: FenceLookup = { fencesContaining: () => [] };

/** Consent-based location monitoring (interface.md, "Identity, consent, monitoring"). */
@Module({
  imports: [GeofencesModule],
  controllers: [
    GrantConsentController,
    RevokeConsentController,
    DeleteConsentDataController,
    GetConsentStatusController,
    RecordPingsController,
    RegisterZoneController,
    GetDriftController,
  ],
  providers: [
    {
      provide: Consents,
      inject: [EVENT_STORE, EventRegistry, CLOCK],
      useFactory: (events: EventStore, registry: EventRegistry, clock: Clock) => new Consents(events, registry, clock),
    },
    {
      provide: LocationSealing,
      inject: [DATA_KEY_VAULT],
      useFactory: (vault: DataKeyVault) => new LocationSealing(vault),
    },
    {
      provide: Locations,
      inject: [EVENT_STORE, EventRegistry, READ_STORE, LocationSealing, Consents, CLOCK, { token: FenceIndex, optional: true }],
      useFactory: (events: EventStore, registry: EventRegistry, readStore: ReadStore, sealing: LocationSealing, consents: Consents, clock: Clock, fences?: FenceIndex) =>
        new Locations(events, registry, readStore, sealing, consents, fences ?? NO_FENCES, clock),
    },
    {
      provide: DriftQueries,
      inject: [READ_STORE, LocationSealing],
      useFactory: (readStore: ReadStore, sealing: LocationSealing) => new DriftQueries(readStore, sealing),
    },
    // The webhook notification source this context declares in its manifest (`notifications`).
    {
      provide: MonitoringNotifications,
      inject: [EVENT_STORE, EventRegistry, LocationSealing],
      useFactory: (events: EventStore, registry: EventRegistry, sealing: LocationSealing) => new MonitoringNotifications(events, registry, sealing),
    },
  ],
  exports: [Consents, Locations, MonitoringNotifications],
})
export class MonitoringModule {}
