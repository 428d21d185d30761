import { Module } from '@nestjs/common';
import { CONFIG, EVENT_STORE, EventRegistry, PROCESS_ROLE, type Config, type EventStore, type ProcessRole } from '../../../platform/src/index.js';
import { AUDIT_TRAIL, type AuditTrail } from './audit-trail.port.js';
import { accessJournalDir, JournaledAccessRecorder } from './journaled-access-recorder.js';
import { StoreAuditTrail } from './store-audit-trail.js';

/**
 * The AuditTrail for a process that records no access itself: the worker
 * (checkpoint rounds, the archive job, export jobs) and the operator CLI. In
 * the CLI (role `ops`) on the embedded store, `settle` stores what a stopped
 * api process left in its journal (ADR 4, "The journal") before the chains are
 * read; elsewhere there is nothing of this process's to wait for. The api
 * role's AuditTrail comes with AuditModule, whose `settle` waits for its
 * recorder.
 */
@Module({
  providers: [
    {
      provide: AUDIT_TRAIL,
      inject: [EVENT_STORE, EventRegistry, CONFIG, PROCESS_ROLE],
      useFactory: (events: EventStore, registry: EventRegistry, config: Config, role: ProcessRole): AuditTrail =>
        new StoreAuditTrail(
          events,
          role === 'ops' && !config.eventStoreUrl
            ? async () => ((await JournaledAccessRecorder.settle(events, registry, accessJournalDir(config.dataDir))) === 'held' ? 'held' : 'settled')
            : undefined,
        ),
    },
  ],
  exports: [AUDIT_TRAIL],
})
export class AuditTrailModule {}
