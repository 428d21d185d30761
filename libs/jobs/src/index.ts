// The jobs context's public API: what the apps, other contexts and the tests use.
export * from './domain/job.js';
export * from './event-types.js';
export type { JobKind, JobKindBinding, JobRunContext } from './public/job-kind.js';
export { JOBS_QUEUE, type QueuedJob } from './public/job-submitter.js';
export { JOB_SUBMISSIONS, type JobSubmissions, type SubmittedJob } from './job-submissions.port.js';
export { JobAnswerSchema } from './public/job.answer.js';
export { jobsManifest } from './manifest.js';
export { JobsModule } from './jobs.module.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { jobsContext } from './context.js';
