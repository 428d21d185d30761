// The compliance context's public API (issue 14, docs/adr/0023).
export * from './domain/checkpoint.js';
export * from './event-types.js';
export * from './manifest.js';
export * from './compliance.module.js';
export { AsOfRegistry, replayAsOf, type AsOfAnswer } from './replay/as-of-replay.js';
export { CheckpointWriter, readCheckpoints, checkpointsOf, checkpointsByStream, signCheckpoint, type CheckpointKeys } from './checkpoints/checkpoint-writer.js';
export { buildBundle, BUNDLE_FORMAT, MAX_BUNDLE_ENTRIES, type AuditBundle } from './export/audit-bundle.js';
export { verifyCheckpoints, verifyCheckpointToken, type CheckpointVerdict } from './checkpoints/verify-checkpoints.js';
export { jwksFromLog } from './checkpoints/jwks-from-log.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { complianceContext } from './context.js';
