import type { ContextDefinition } from '../../platform/src/index.js';
import { auditManifest } from './manifest.js';
import { AuditModule } from './audit.module.js';

/** The access audit: every authenticated request, hash-chained (docs/adr/0004). What the audit context brings to the apps (apps/shared/contexts.ts). */
export const auditContext: ContextDefinition = {
  manifest: auditManifest,
  http: AuditModule,
};
