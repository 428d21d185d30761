import { EventRegistry } from '../../platform/src/index.js';
import { readStoredEvents, upcastStoredEvents } from '../../../test/support/stored-events.js';
import { evolveJob, initialJobState, JOB_EVENT_TYPES, type JobEvent } from './domain/job.js';
import { jobsEventTypes } from './event-types.js';
import { jobCompletedPayload } from './notifications/job-notifications.js';

/** Stored JSON from schema version 1 must still fold into today's state (style.md: upcasters against fixtures). */
const stored = readStoredEvents(new URL('./__fixtures__/jobs-events.v1.json', import.meta.url));
const inStream = (id: string) => stored.filter((event) => event.stream?.endsWith(id));

describe('jobs event types', () => {
  const registry = new EventRegistry().register(...jobsEventTypes);

  it('registers every event type of the context, each with a version, and has a stored fixture of each', () => {
    for (const type of JOB_EVENT_TYPES) expect(registry.version(type)).toBe(1);
    expect(new Set(stored.map((event) => event.type))).toEqual(new Set(JOB_EVENT_TYPES));
  });

  it('folds a version-1 export job that succeeded', () => {
    const events = upcastStoredEvents<JobEvent>(registry, inStream('job_0123456789abcdef0123456789abcdef'));
    expect(events.reduce(evolveJob, initialJobState)).toEqual({
      status: 'succeeded',
      kind: 'audit.export',
      queued_at: '2026-12-07T10:00:00.000Z',
      started_at: '2026-12-07T10:00:00.100Z',
      finished_at: '2026-12-07T10:00:01.000Z',
      done: 2,
      total: 2,
      attempts: 1,
      result_bytes: 4821,
      expires_at: '2026-12-14T10:00:01.000Z',
      error: null,
    });
  });

  it('folds a version-1 bulk job that failed on its second attempt, and its job.completed payload', () => {
    const events = upcastStoredEvents<JobEvent>(registry, inStream('job_fedcba9876543210fedcba9876543210'));
    expect(events.reduce(evolveJob, initialJobState)).toMatchObject({ status: 'failed', kind: 'hexcode.bulk', total: 12000, attempts: 2, started_at: '2026-12-07T11:00:00.100Z', error: { code: 'INVALID_PARAM' } });
    const failed = events.at(-1)!;
    expect(jobCompletedPayload('JobFailed', failed.data as never)).toEqual({
      event: 'job.completed',
      job_id: 'job_fedcba9876543210fedcba9876543210',
      kind: 'hexcode.bulk',
      status: 'failed',
      href: '/v2/jobs/job_fedcba9876543210fedcba9876543210',
      result_href: null,
      error: { code: 'INVALID_PARAM', message: 'items must be an array' },
      timestamp: '2026-12-07T11:00:06.000Z',
    });
  });
});
