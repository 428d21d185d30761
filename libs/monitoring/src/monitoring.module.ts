import { Module } from '@nestjs/common';
import { CLOCK, EVENT_STORE, EventRegistry, type Clock, type EventStore } from '../../platform/src/index.js';
import { DeleteConsentDataController } from './commands/delete-consent-data/delete-consent-data.controller.js';
import { GrantConsentController } from './commands/grant-consent/grant-consent.controller.js';
import { RevokeConsentController } from './commands/revoke-consent/revoke-consent.controller.js';
import { Consents } from './consents.js';
import { MonitoringNotifications } from './monitoring-notifications.js';
import { NOTIFICATION_SOURCE } from './notifications.js';
import { GetConsentStatusController } from './queries/get-consent-status/get-consent-status.controller.js';

/** Consent-based location monitoring (interface.md, "Identity, consent, monitoring"); so far consent only. */
@Module({
  controllers: [GrantConsentController, RevokeConsentController, DeleteConsentDataController, GetConsentStatusController],
  providers: [
    {
      provide: Consents,
      inject: [EVENT_STORE, EventRegistry, CLOCK],
      useFactory: (events: EventStore, registry: EventRegistry, clock: Clock) => new Consents(events, registry, clock),
    },
    {
      provide: NOTIFICATION_SOURCE,
      inject: [EVENT_STORE, EventRegistry],
      useFactory: (events: EventStore, registry: EventRegistry) => new MonitoringNotifications(events, registry),
    },
  ],
  exports: [Consents, NOTIFICATION_SOURCE],
})
export class MonitoringModule {}
