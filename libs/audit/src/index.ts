export * from './domain/access-events.js';
export * from './event-types.js';
export { AccessRecorder, type AccessRecorderOptions } from './public/access-recorder.js';
export { accessListener } from './public/access-listener.js';
export * from './audit.module.js';
export { AUDIT_TRAIL, type AuditTrail, type ChainEntry, type ChainCheck } from './public/audit-trail.port.js';
export { AuditTrailModule } from './public/audit-trail.module.js';
export * from './manifest.js';
export { ACCESS_LOG_READ_MODEL, ACCESS_LOG_INDEXES, type AccessLogDoc, type AccessLogQuery, type AuditPage } from './public/access-log.read-model.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { auditContext } from './context.js';
