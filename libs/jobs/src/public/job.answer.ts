import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../platform/src/index.js';
import { JOB_STATUSES, type JobState } from '../domain/job.js';

const OrNull = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

/** A job as the API shows it: the 202 of an endpoint that answers with a job, and GET /v2/jobs/{id}. */
export const JobObject = Type.Object({
  id: Type.String({ description: 'job_ and 32 hex digits' }),
  kind: Type.String({ description: 'What the job does: `hexcode.bulk`, `audit.export`, `customer.copy`' }),
  status: Type.Union(JOB_STATUSES.map((status) => Type.Literal(status)), { description: 'queued → running → succeeded or failed' }),
  progress: Type.Object({
    done: Type.Integer({ description: 'Items done so far (the whole count once succeeded)' }),
    total: OrNull(Type.Integer({ description: 'Items in all; null when the job does not count items' })),
  }),
  queued_at: Type.String({ format: 'date-time' }),
  started_at: OrNull(Type.String({ format: 'date-time' })),
  finished_at: OrNull(Type.String({ format: 'date-time' })),
  attempts: Type.Integer({ description: 'Runs started (a run interrupted by a worker that stopped is started again)' }),
  result: OrNull(
    Type.Object({
      href: Type.String({ description: 'GET it (same key) for the answer the synchronous call gives, in the same envelope' }),
      bytes: Type.Integer(),
      expires_at: Type.String({ format: 'date-time', description: 'The result is kept until then' }),
    }),
  ),
  error: OrNull(Type.Object({ code: Type.String(), message: Type.String() }, { description: 'Why the job failed' })),
});

export const JobAnswerSchema = defineAnswer('Job', JobObject, {
  id: 'job_4b9e2c7a1f3d5e8b0c6a9f2d4e7b1c3a',
  kind: 'audit.export',
  status: 'succeeded',
  progress: { done: 1, total: 1 },
  queued_at: '2026-12-07T10:00:00.000Z',
  started_at: '2026-12-07T10:00:00.120Z',
  finished_at: '2026-12-07T10:00:01.400Z',
  attempts: 1,
  result: { href: '/v2/jobs/job_4b9e2c7a1f3d5e8b0c6a9f2d4e7b1c3a/result', bytes: 48213, expires_at: '2026-12-14T10:00:01.400Z' },
  error: null,
});

/** The result of a job: the `data` of the answer the synchronous call gives (its schema is that endpoint's). */
export const JobResultAnswerSchema = defineAnswer('JobResult', Type.Object({}, { additionalProperties: true, description: "The synchronous endpoint's `data`: for `audit.export` an AuditBundle, for `hexcode.bulk` a BulkHexcodeAnswer, for `customer.copy` a CustomerCopy" }), {});

export function jobLocation(jobId: string): string {
  return `/v2/jobs/${jobId}`;
}

export function publicJob(jobId: string, state: JobState) {
  return {
    id: jobId,
    kind: state.kind!,
    status: state.status as (typeof JOB_STATUSES)[number],
    progress: { done: state.done, total: state.total },
    queued_at: state.queued_at!,
    started_at: state.started_at,
    finished_at: state.finished_at,
    attempts: state.attempts,
    result: state.status === 'succeeded' ? { href: `${jobLocation(jobId)}/result`, bytes: state.result_bytes ?? 0, expires_at: state.expires_at! } : null,
    error: state.error,
  };
}
