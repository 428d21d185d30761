import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { EVENT_STORE, EventRegistry, type EventStore } from '../../platform/src/index.js';
import { GetAdminAuditController } from './queries/get-admin-audit/get-admin-audit.controller.js';
import { GetAdminAuditHandler } from './queries/get-admin-audit/get-admin-audit.handler.js';
import { AccessRecorder } from './recording/access-recorder.js';

@Module({
  imports: [CqrsModule],
  controllers: [GetAdminAuditController],
  providers: [
    GetAdminAuditHandler,
    { provide: AccessRecorder, inject: [EVENT_STORE, EventRegistry], useFactory: (events: EventStore, registry: EventRegistry) => new AccessRecorder(events, registry) },
  ],
  exports: [AccessRecorder],
})
export class AuditModule {}
