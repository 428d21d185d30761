import type { ContextManifest } from '../../platform/src/index.js';
import { recordJob } from './commands/record-job/record-job.handler.js';
import { jobsEventTypes } from './event-types.js';
import { JobNotifications } from './notifications/job-notifications.js';
import { JOBS_QUEUE } from './public/job-submitter.js';
import { GetJobQuery } from './queries/get-job/get-job.handler.js';

/** What the jobs context brings to a process (checked at start-up). */
export const jobsManifest: ContextManifest = {
  name: 'jobs',
  events: jobsEventTypes,
  commands: [recordJob],
  queries: [GetJobQuery],
  jobs: [JOBS_QUEUE],
  notifications: [{ token: JobNotifications, notifies: JobNotifications.notifies, from: JobNotifications.from }],
};
