// The compliance context's public API (issue 14, docs/adr/0023).
export * from './domain/checkpoint.js';
export * from './event-types.js';
export * from './manifest.js';
export * from './compliance.module.js';
// The `audit.export` job kind (bound to the jobs context by apps/shared/contexts.ts).
export { AuditExportJob, AuditExportJobModule } from './public/audit-export.job.js';
export { customerCopyJobBinding } from './queries/get-customer-copy/customer-copy-job.module.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { complianceContext } from './context.js';
