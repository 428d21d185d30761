import type { ContextDefinition } from '../../platform/src/index.js';
import { JobsModule, jobsWorkerModule } from './jobs.module.js';
import { jobsManifest } from './manifest.js';
import type { JobKindBinding } from './public/job-kind.js';

/**
 * Work that outlives a request (issue 48, item 2): jobs on the job-queue
 * port, run by the worker role. The composition root binds the kinds other
 * contexts implement (apps/shared/contexts.ts), so this context names none.
 */
export function jobsContext(kinds: readonly JobKindBinding[]): ContextDefinition {
  return { manifest: jobsManifest, http: JobsModule, worker: jobsWorkerModule(kinds) };
}
