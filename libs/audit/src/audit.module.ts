import { Module } from '@nestjs/common';
import { CONFIG, EVENT_STORE, EventRegistry, type Config, type EventStore } from '../../platform/src/index.js';
import { GetAdminAuditController } from './queries/get-admin-audit/get-admin-audit.controller.js';
import { GetAdminAuditHandler } from './queries/get-admin-audit/get-admin-audit.handler.js';
import { GetBankingAuditLogController } from './queries/get-banking-audit-log/get-banking-audit-log.controller.js';
import { GetBankingAuditLogHandler } from './queries/get-banking-audit-log/get-banking-audit-log.handler.js';
import { AccessRecorder } from './recording/access-recorder.js';

@Module({
  controllers: [GetAdminAuditController, GetBankingAuditLogController],
  providers: [
    GetAdminAuditHandler,
    GetBankingAuditLogHandler,
    {
      provide: AccessRecorder,
      inject: [EVENT_STORE, EventRegistry, CONFIG],
      // Pipelined appends only where this process is the chain's only writer (see AccessRecorderOptions).
      useFactory: (events: EventStore, registry: EventRegistry, config: Config) =>
        new AccessRecorder(events, registry, { maxInFlight: config.eventStoreUrl ? 1 : 4 }),
    },
  ],
  exports: [AccessRecorder],
})
export class AuditModule {}
