import { complianceCli } from './cli.js';
import type { ContextDefinition } from '../../platform/src/index.js';
import { complianceManifest } from './manifest.js';
import { ComplianceModule, ComplianceWorkerModule } from './compliance.module.js';

/** Signed audit checkpoints, exports and as-of replay (docs/adr/0023). What the compliance context brings to the apps (apps/shared/contexts.ts). */
export const complianceContext: ContextDefinition = {
  manifest: complianceManifest,
  http: ComplianceModule,
  worker: ComplianceWorkerModule,
  cli: complianceCli,
};
