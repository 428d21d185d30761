import { Module } from '@nestjs/common';
import { CONFIG, EVENT_STORE, EventRegistry, JsonLogger, type Config, type EventStore } from '../../platform/src/index.js';
import { GetAdminAuditController } from './queries/get-admin-audit/get-admin-audit.controller.js';
import { GetAdminAuditHandler } from './queries/get-admin-audit/get-admin-audit.handler.js';
import { GetBankingAuditLogController } from './queries/get-banking-audit-log/get-banking-audit-log.controller.js';
import { GetBankingAuditLogHandler } from './queries/get-banking-audit-log/get-banking-audit-log.handler.js';
import { GetCustomerAccessLogController } from './queries/get-customer-access-log/get-customer-access-log.controller.js';
import { GetCustomerAccessLogHandler } from './queries/get-customer-access-log/get-customer-access-log.handler.js';
import { AccessRecorder, StoreAccessRecorder } from './public/access-recorder.js';
import { accessJournalDir, JournaledAccessRecorder } from './public/journaled-access-recorder.js';
import { AUDIT_TRAIL, type AuditTrail } from './public/audit-trail.port.js';
import { StoreAuditTrail } from './public/store-audit-trail.js';

@Module({
  controllers: [GetAdminAuditController, GetBankingAuditLogController, GetCustomerAccessLogController],
  providers: [
    GetAdminAuditHandler,
    GetBankingAuditLogHandler,
    GetCustomerAccessLogHandler,
    {
      provide: AccessRecorder,
      inject: [EVENT_STORE, EventRegistry, CONFIG, JsonLogger],
      // EventStoreDB: several api instances may share a chain, so each batch goes to the store and is relinked on a
      // conflict. Embedded: this process is the only writer, so entries are committed to a local journal first and
      // stored right after (ADR 0004, "The journal").
      useFactory: (events: EventStore, registry: EventRegistry, config: Config, logger: JsonLogger): Promise<AccessRecorder> | AccessRecorder =>
        config.eventStoreUrl
          ? new StoreAccessRecorder(events, registry, { maxInFlight: 1 })
          : JournaledAccessRecorder.open(events, registry, accessJournalDir(config.dataDir), (msg, error) => logger.error({ msg, err: String(error) })),
    },
    // The trail compliance reads (docs/adr/0065); settled once this process's answered requests are in the chains.
    { provide: AUDIT_TRAIL, inject: [EVENT_STORE, AccessRecorder], useFactory: (events: EventStore, recorder: AccessRecorder): AuditTrail => new StoreAuditTrail(events, () => recorder.applied().then(() => 'settled' as const)) },
  ],
  exports: [AccessRecorder, AUDIT_TRAIL],
})
export class AuditModule {}
