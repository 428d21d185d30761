import type { EventTypeDefinition } from '../../platform/src/index.js';
import { JOB_EVENT_TYPES } from './domain/job.js';

/** Schema versions of the jobs context's stored events. */
export const jobsEventTypes: EventTypeDefinition[] = JOB_EVENT_TYPES.map((type) => ({ type, version: 1 }));
