import { Module } from '@nestjs/common';
import { AUDIT_TRAIL, AuditTrailModule, type AuditTrail } from '../../../audit/src/index.js';
import { SIGNING_KEYS, SigningKeysModule, type SigningKeys } from '../../../identity/src/index.js';
import { CLOCK, EVENT_STORE, EventRegistry, JsonLogger, type Clock, type EventStore } from '../../../platform/src/index.js';
import { CheckpointScheduler } from './checkpoint-scheduler.js';

/**
 * The on-demand signer (an export's closing checkpoint, a customer's copy)
 * for a job run by the worker, with the ports it reads and signs through
 * (docs/adr/0065); it re-exports the AuditTrail. No periodic rounds: those are
 * ComplianceWorkerModule's.
 */
@Module({
  imports: [AuditTrailModule, SigningKeysModule],
  providers: [
    {
      provide: CheckpointScheduler,
      inject: [EVENT_STORE, EventRegistry, AUDIT_TRAIL, SIGNING_KEYS, CLOCK, JsonLogger],
      useFactory: (events: EventStore, registry: EventRegistry, trail: AuditTrail, keys: SigningKeys, clock: Clock, logger: JsonLogger) => new CheckpointScheduler(events, registry, trail, keys, clock, logger, 0),
    },
  ],
  exports: [CheckpointScheduler, AuditTrailModule],
})
export class CheckpointSignerModule {}
