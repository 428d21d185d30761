import { Module } from '@nestjs/common';
import { CLOCK, CONFIG, CONTEXT_MANIFESTS, EVENT_STORE, EventRegistry, JsonLogger, READ_STORE, SecretBox, type Clock, type Config, type ContextManifest, type EventStore, type ReadStore } from '../../platform/src/index.js';
import { AUDIT_TRAIL, AuditModule, AuditTrailModule, type AuditTrail } from '../../audit/src/index.js';
import { CustomerVerificationsModule, SIGNING_KEYS, SigningKeysModule, type SigningKeys } from '../../identity/src/index.js';
import { MonitoringModule } from '../../monitoring/src/index.js';
import { CustomerDeliveries } from '../../webhooks/src/index.js';
import { GetCustomerCopyController } from './queries/get-customer-copy/get-customer-copy.controller.js';
import { GetCustomerCopyHandler } from './queries/get-customer-copy/get-customer-copy.handler.js';
import { CustomerCopies } from './queries/get-customer-copy/customer-copies.js';
import { CheckpointScheduler } from './checkpoints/checkpoint-scheduler.js';
import { RetentionScheduler } from './retention/retention-scheduler.js';
import { AdminExportAuditBundleController, ExportAuditBundleController } from './queries/export-audit-bundle/export-audit-bundle.controller.js';
import { ExportAuditBundleHandler } from './queries/export-audit-bundle/export-audit-bundle.handler.js';
import { GetAccountAsOfController } from './queries/get-account-as-of/get-account-as-of.controller.js';
import { GetAccountAsOfHandler } from './queries/get-account-as-of/get-account-as-of.handler.js';
import { OwnAccountAsOfController } from './queries/get-account-as-of/own-account-as-of.controller.js';
import { GetAccountChangesController } from './queries/get-account-changes/get-account-changes.controller.js';
import { GetAccountChangesHandler } from './queries/get-account-changes/get-account-changes.handler.js';
import { AsOfRegistry } from './replay/as-of-replay.js';

/**
 * Compliance (issue 14, docs/adr/0023): an account as of any instant, signed
 * checkpoints of the access chains, and export bundles a third party
 * verifies with the JWKS alone.
 */
@Module({
  // Audit publishes the AuditTrail port (readers of the chains settle it first: this process's answered requests are in them),
  // identity the SigningKeys port (docs/adr/0065), monitoring the customer-locations port a customer's copy reads.
  imports: [AuditModule, SigningKeysModule, MonitoringModule, CustomerVerificationsModule],
  controllers: [GetAccountAsOfController, OwnAccountAsOfController, GetAccountChangesController, GetCustomerCopyController, ExportAuditBundleController, AdminExportAuditBundleController],
  providers: [
    // Each context declares its part of the replay in its manifest.
    { provide: AsOfRegistry, inject: [CONTEXT_MANIFESTS], useFactory: (manifests: readonly ContextManifest[]) => AsOfRegistry.fromManifests(manifests) },
    GetAccountAsOfHandler,
    GetAccountChangesHandler,
    GetCustomerCopyHandler,
    CustomerCopies,
    // Webhooks' published reader of the deliveries naming a customer, with this deployment's keyed hash.
    { provide: CustomerDeliveries, inject: [READ_STORE, SecretBox], useFactory: (readStore: ReadStore, box: SecretBox) => CustomerDeliveries.fromSecretBox(readStore, box) },
    ExportAuditBundleHandler,
    // The signer of exports' and customers' copies; the periodic rounds run in the worker (ComplianceWorkerModule).
    {
      provide: CheckpointScheduler,
      inject: [EVENT_STORE, EventRegistry, AUDIT_TRAIL, SIGNING_KEYS, CLOCK, JsonLogger],
      useFactory: (events: EventStore, registry: EventRegistry, trail: AuditTrail, keys: SigningKeys, clock: Clock, logger: JsonLogger) => new CheckpointScheduler(events, registry, trail, keys, clock, logger, 0),
    },
  ],
  exports: [AsOfRegistry],
})
export class ComplianceModule {}

/** The periodic checkpoint rounds' instance (the worker's own writer). */
export const CHECKPOINT_ROUNDS = Symbol('CheckpointRounds');

/**
 * Compliance's background work, in the worker role only: a checkpoint round
 * every AUDIT_CHECKPOINT_INTERVAL_S seconds over every access chain
 * (docs/adr/0023), and the archive job every AUDIT_RETENTION_INTERVAL_S
 * seconds (docs/adr/0024). The api processes sign only on demand (an export, a
 * customer's copy); one chain of checkpoints either way.
 */
@Module({
  // The chains through the AuditTrail (no recorder in this role), signed with the SigningKeys (docs/adr/0065).
  imports: [AuditTrailModule, SigningKeysModule],
  providers: [
    {
      provide: CHECKPOINT_ROUNDS,
      inject: [EVENT_STORE, EventRegistry, AUDIT_TRAIL, SIGNING_KEYS, CLOCK, JsonLogger, CONFIG],
      useFactory: (events: EventStore, registry: EventRegistry, trail: AuditTrail, keys: SigningKeys, clock: Clock, logger: JsonLogger, config: Config) =>
        new CheckpointScheduler(events, registry, trail, keys, clock, logger, config.auditCheckpointIntervalS),
    },
    // The archive job (docs/adr/0024), signing each archived month's closing head with the rounds' writer.
    {
      provide: RetentionScheduler,
      inject: [EVENT_STORE, EventRegistry, AUDIT_TRAIL, CHECKPOINT_ROUNDS, CLOCK, CONFIG, JsonLogger],
      useFactory: (events: EventStore, registry: EventRegistry, trail: AuditTrail, rounds: CheckpointScheduler, clock: Clock, config: Config, logger: JsonLogger) => new RetentionScheduler(events, registry, trail, rounds, clock, config, logger),
    },
  ],
})
export class ComplianceWorkerModule {}
