// The jobs context's public API: what the apps, other contexts and the tests use.
export * from './domain/job.js';
export * from './event-types.js';
export { prefersAsync, type JobKind, type JobKindBinding, type JobRunContext } from './public/job-kind.js';
export { JobSubmitter, JOBS_QUEUE, type QueuedJob } from './public/job-submitter.js';
export { JobAnswerSchema, jobLocation } from './public/job.answer.js';
export { jobsManifest } from './manifest.js';
export { JobsModule } from './jobs.module.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { jobsContext } from './context.js';
