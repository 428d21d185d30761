import { Module } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { CommandPipeline, DATA_KEY_VAULT, EVENT_STORE, EventRegistry, JsonLogger, READ_STORE, SecretBox, type DataKeyVault, type EventStore, type ReadStore } from '../../platform/src/index.js';
import { DeleteConsentDataController } from './commands/delete-consent-data/delete-consent-data.controller.js';
import { DeleteConsentDataHandler, RecordErasureHandler } from './commands/delete-consent-data/delete-consent-data.handler.js';
import { GrantConsentController } from './commands/grant-consent/grant-consent.controller.js';
import { GrantConsentHandler } from './commands/grant-consent/grant-consent.handler.js';
import { RegisterConsentNoticeController } from './commands/register-consent-notice/register-consent-notice.controller.js';
import { RegisterConsentNoticeHandler } from './commands/register-consent-notice/register-consent-notice.handler.js';
import { RecordPingsController } from './commands/record-pings/record-pings.controller.js';
import { RecordPingsHandler } from './commands/record-pings/record-pings.handler.js';
import { RecordPingBatchHandler } from './commands/record-pings/record-pings.process.js';
import { RegisterZoneController } from './commands/register-zone/register-zone.controller.js';
import { RegisterZoneHandler } from './commands/register-zone/register-zone.handler.js';
import { RevokeConsentController } from './commands/revoke-consent/revoke-consent.controller.js';
import { RecordRevocationHandler, RevokeConsentHandler, StopCollectionHandler } from './commands/revoke-consent/revoke-consent.handler.js';
import { ConsentRecordBackfill } from './commands/seal-consent-record/consent-record-backfill.js';
import { SealConsentRecordHandler } from './commands/seal-consent-record/seal-consent-record.handler.js';
import { ConsentProofCodec } from './consent-record/consent-proof-codec.js';
import { ConsentRecordSealing } from './consent-record/consent-record-sealing.js';
import { GeofencesModule } from './geofences/geofences.module.js';
import { CustomerPseudonyms } from './location-stream/customer-pseudonyms.js';
import { LocationCaches } from './location-stream/location-caches.js';
import { LocationCodec } from './location-stream/location-codec.js';
import { LocationSealing } from './location-stream/location-sealing.js';
import { MonitoringCustomerLocations } from './customer-locations/monitoring-customer-locations.js';
import { MonitoringNotifications } from './monitoring-notifications.js';
import { CUSTOMER_LOCATIONS } from './public/customer-locations.port.js';
import { CUSTOMER_PSEUDONYMS } from './public/customer-pseudonyms.port.js';
import { CONSENT_RECEIPT_SIGNER, type ConsentReceiptSigner } from './public/consent-receipts.port.js';
import { GetConsentStatusController } from './queries/get-consent-status/get-consent-status.controller.js';
import { GetConsentStatusHandler } from './queries/get-consent-status/get-consent-status.handler.js';
import { GetConsentNoticeController } from './queries/get-consent-notice/get-consent-notice.controller.js';
import { GetConsentNoticeHandler } from './queries/get-consent-notice/get-consent-notice.handler.js';
import { ConsentNoticeRegistry } from './consent-notices/consent-notice-registry.js';
import { ListConsentNoticesController } from './queries/list-consent-notices/list-consent-notices.controller.js';
import { ListConsentNoticesHandler } from './queries/list-consent-notices/list-consent-notices.handler.js';
import { GetDriftController } from './queries/get-drift/get-drift.controller.js';
import { GetDriftHandler } from './queries/get-drift/get-drift.handler.js';
import { ListConsentsController } from './queries/list-consents/list-consents.controller.js';
import { ListConsentsHandler } from './queries/list-consents/list-consents.handler.js';
import { ConsentReceipts } from './receipts/consent-receipts.js';

/** Consent-based location monitoring (interface.md, "Identity, consent, monitoring"). */
@Module({
  imports: [GeofencesModule],
  controllers: [
    GrantConsentController,
    RevokeConsentController,
    DeleteConsentDataController,
    GetConsentStatusController,
    ListConsentsController,
    // The notice registry (docs/adr/0059): the list before the version route, so `/notices` is never a version.
    ListConsentNoticesController,
    RegisterConsentNoticeController,
    GetConsentNoticeController,
    RecordPingsController,
    RegisterZoneController,
    GetDriftController,
  ],
  providers: [
    // The grant, revoke and delete-data handlers sign their receipts (docs/adr/0064) with identity's keys (docs/adr/0032):
    // the identity module provides CONSENT_RECEIPT_SIGNER globally. Without it (monitoring alone) receipts are null, and the log says so.
    {
      provide: ConsentReceipts,
      inject: [{ token: CONSENT_RECEIPT_SIGNER, optional: true }, { token: JsonLogger, optional: true }],
      useFactory: (signer: ConsentReceiptSigner | undefined, logger: JsonLogger | undefined) => {
        if (!signer) logger?.warn('no consent receipt signer (the identity context) in this process: consent grants, revocations and erasures answer receipt null', 'MonitoringModule');
        return new ConsentReceipts(signer ?? null);
      },
    },
    { provide: CustomerPseudonyms, inject: [SecretBox], useFactory: (box: SecretBox) => CustomerPseudonyms.fromSecretBox(box) },
    // The pseudonyms as other contexts' read models use them (banking's collection loans, docs/adr/0055).
    { provide: CUSTOMER_PSEUDONYMS, useExisting: CustomerPseudonyms },
    { provide: LocationSealing, inject: [DATA_KEY_VAULT], useFactory: (vault: DataKeyVault) => new LocationSealing(vault) },
    // Seals a grant's proof reference under the consent-record key (docs/adr/0055).
    { provide: ConsentProofCodec, inject: [DATA_KEY_VAULT], useFactory: (vault: DataKeyVault) => new ConsentProofCodec(vault) },
    {
      provide: ConsentRecordSealing,
      inject: [DATA_KEY_VAULT, CustomerPseudonyms],
      useFactory: (vault: DataKeyVault, pseudonyms: CustomerPseudonyms) => new ConsentRecordSealing(vault, pseudonyms),
    },
    // Seals the records of grants stored before GET /v2/consents, once per deployment (docs/adr/0032, "Listing").
    {
      provide: ConsentRecordBackfill,
      inject: [EVENT_STORE, READ_STORE, CommandBus, JsonLogger],
      useFactory: (events: EventStore, readStore: ReadStore, commands: CommandBus, logger: JsonLogger) => new ConsentRecordBackfill(events, readStore, commands, logger),
    },
    {
      provide: LocationCaches,
      inject: [READ_STORE, CustomerPseudonyms],
      useFactory: (readStore: ReadStore, pseudonyms: CustomerPseudonyms) => new LocationCaches(readStore, pseudonyms),
    },
    {
      provide: LocationCodec,
      inject: [LocationSealing, LocationCaches, CustomerPseudonyms],
      useFactory: (sealing: LocationSealing, caches: LocationCaches, pseudonyms: CustomerPseudonyms) => new LocationCodec(sealing, caches, pseudonyms),
    },
    // The port other contexts read a customer's location through (banking, identity).
    {
      provide: CUSTOMER_LOCATIONS,
      inject: [EVENT_STORE, EventRegistry, READ_STORE, LocationSealing, CustomerPseudonyms, ConsentProofCodec],
      useFactory: (events: EventStore, registry: EventRegistry, readStore: ReadStore, sealing: LocationSealing, pseudonyms: CustomerPseudonyms, proofs: ConsentProofCodec) =>
        new MonitoringCustomerLocations(events, registry, readStore, sealing, pseudonyms, proofs),
    },
    GrantConsentHandler,
    // Grants read an account's notice registry through it (hashes only, cached by stream revision; docs/adr/0059).
    { provide: ConsentNoticeRegistry, inject: [CommandPipeline, EVENT_STORE], useFactory: (commands: CommandPipeline, events: EventStore) => new ConsentNoticeRegistry(commands, events) },
    RegisterConsentNoticeHandler,
    ListConsentNoticesHandler,
    GetConsentNoticeHandler,
    RegisterZoneHandler,
    RecordPingsHandler,
    RecordPingBatchHandler,
    RecordRevocationHandler,
    StopCollectionHandler,
    RevokeConsentHandler,
    RecordErasureHandler,
    DeleteConsentDataHandler,
    GetConsentStatusHandler,
    ListConsentsHandler,
    SealConsentRecordHandler,
    GetDriftHandler,
    // The webhook notification source this context declares in its manifest (`notifications`).
    {
      provide: MonitoringNotifications,
      inject: [EVENT_STORE, EventRegistry, LocationSealing],
      useFactory: (events: EventStore, registry: EventRegistry, sealing: LocationSealing) => new MonitoringNotifications(events, registry, sealing),
    },
  ],
  exports: [CUSTOMER_LOCATIONS, CUSTOMER_PSEUDONYMS, MonitoringNotifications],
})
export class MonitoringModule {}
