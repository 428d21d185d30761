import type { Decider } from '../../../platform/src/commands/decider.js';
import { DomainError, InvalidParamError } from '../../../platform/src/errors.js';

/**
 * A job (issue 48, item 2): work that outlives its request, run by a worker
 * process from the job queue. One stream per (account, job); its events are
 * the job's state, so a restart of any process finds every job where it was.
 * The input travels on the queue only; the events hold the kind, the counts
 * and where the result is, never the items.
 */
export const JOB_ID = /^job_[0-9a-f]{32}$/;
export const JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobQueued {
  type: 'JobQueued';
  data: { account_id: string; job_id: string; kind: string; queued_at: string; total: number | null };
}
export interface JobStarted {
  type: 'JobStarted';
  data: { account_id: string; job_id: string; started_at: string; attempt: number };
}
export interface JobProgressed {
  type: 'JobProgressed';
  data: { account_id: string; job_id: string; done: number; total: number | null; at: string };
}
export interface JobSucceeded {
  type: 'JobSucceeded';
  data: { account_id: string; job_id: string; kind: string; finished_at: string; result_bytes: number; expires_at: string };
}
export interface JobFailed {
  type: 'JobFailed';
  data: { account_id: string; job_id: string; kind: string; finished_at: string; error: { code: string; message: string } };
}
export type JobEvent = JobQueued | JobStarted | JobProgressed | JobSucceeded | JobFailed;
export const JOB_EVENT_TYPES = ['JobQueued', 'JobStarted', 'JobProgressed', 'JobSucceeded', 'JobFailed'] as const satisfies readonly JobEvent['type'][];

export type JobCommand =
  | { type: 'Queue'; account_id: string; job_id: string; kind: string; total: number | null }
  | { type: 'Start'; account_id: string; job_id: string; attempt: number }
  | { type: 'Progress'; account_id: string; job_id: string; done: number; total: number | null }
  | { type: 'Succeed'; account_id: string; job_id: string; result_bytes: number; expires_at: string }
  | { type: 'Fail'; account_id: string; job_id: string; error: { code: string; message: string } };

export interface JobState {
  status: 'none' | JobStatus;
  kind: string | null;
  queued_at: string | null;
  started_at: string | null;
  finished_at: string | null;
  done: number;
  total: number | null;
  attempts: number;
  result_bytes: number | null;
  expires_at: string | null;
  error: { code: string; message: string } | null;
}

export const initialJobState: JobState = {
  status: 'none',
  kind: null,
  queued_at: null,
  started_at: null,
  finished_at: null,
  done: 0,
  total: null,
  attempts: 0,
  result_bytes: null,
  expires_at: null,
  error: null,
};

export function evolveJob(state: JobState, event: JobEvent): JobState {
  switch (event.type) {
    case 'JobQueued':
      return { ...initialJobState, status: 'queued', kind: event.data.kind, queued_at: event.data.queued_at, total: event.data.total };
    case 'JobStarted':
      return { ...state, status: 'running', started_at: state.started_at ?? event.data.started_at, attempts: event.data.attempt };
    case 'JobProgressed':
      return { ...state, done: event.data.done, total: event.data.total ?? state.total };
    case 'JobSucceeded':
      return { ...state, status: 'succeeded', finished_at: event.data.finished_at, result_bytes: event.data.result_bytes, expires_at: event.data.expires_at, done: state.total ?? state.done };
    case 'JobFailed':
      return { ...state, status: 'failed', finished_at: event.data.finished_at, error: event.data.error };
    default: {
      const _exhaustive: never = event;
      return _exhaustive;
    }
  }
}

const finished = (state: JobState) => state.status === 'succeeded' || state.status === 'failed';

/**
 * Queued once; started (again on a retried attempt) until it finishes; a
 * finished job records nothing more, so a job run twice by two workers (a
 * lease lost, a retry after a crash) finishes once.
 */
export const jobDecider: Decider<JobCommand, JobState, JobEvent> = {
  initialState: initialJobState,
  evolve: evolveJob,
  decide(command, state, now) {
    const at = now.toISOString();
    const ids = { account_id: command.account_id, job_id: command.job_id };
    if (command.type === 'Queue') {
      if (state.status !== 'none') return [];
      return [{ type: 'JobQueued', data: { ...ids, kind: command.kind, queued_at: at, total: command.total } }];
    }
    if (state.status === 'none') throw new JobNotFoundError(command.job_id);
    if (finished(state)) return [];
    switch (command.type) {
      case 'Start':
        return [{ type: 'JobStarted', data: { ...ids, started_at: at, attempt: command.attempt } }];
      case 'Progress':
        return command.done === state.done ? [] : [{ type: 'JobProgressed', data: { ...ids, done: command.done, total: command.total, at } }];
      case 'Succeed':
        return [{ type: 'JobSucceeded', data: { ...ids, kind: state.kind!, finished_at: at, result_bytes: command.result_bytes, expires_at: command.expires_at } }];
      case 'Fail':
        return [{ type: 'JobFailed', data: { ...ids, kind: state.kind!, finished_at: at, error: command.error } }];
      default: {
        const _exhaustive: never = command;
        return _exhaustive;
      }
    }
  },
};

/** `job-<account>:<job id>`: the account is part of the name, so another account's id finds no stream. */
export function jobStream(accountId: string, jobId: string): string {
  return `job-${accountId}:${jobId}`;
}

export function parseJobId(id: string): string {
  if (!JOB_ID.test(id)) throw new InvalidParamError('id must be job_ and 32 hex digits', 'id');
  return id;
}

export class JobNotFoundError extends DomainError {
  readonly code = 'JOB_NOT_FOUND';
  readonly status = 404;
  constructor(jobId: string) {
    super(`no job ${jobId} under this account`);
  }
}

/** The job has not succeeded (yet), or its result is past its retention. */
export class JobResultNotFoundError extends DomainError {
  readonly code = 'JOB_RESULT_NOT_FOUND';
  readonly status = 404;
  constructor(jobId: string, why: string) {
    super(`job ${jobId} has no result: ${why}`);
  }
}

/**
 * The job's result was made from a customer's data and sealed under the
 * customer's data key (a customer's copy, docs/adr/0068): the customer's data
 * was erased (POST /v2/consent/delete-data destroyed the key), before or after
 * the result was made, so there is no result and never will be. A job that
 * finds the key gone before it made its result fails with this code.
 */
export const JOB_RESULT_ERASED = 'JOB_RESULT_ERASED';

export class JobResultErasedError extends DomainError {
  readonly code = JOB_RESULT_ERASED;
  readonly status = 410;
  constructor(jobId: string) {
    super(`job ${jobId} has no result: the customer's data it was made from was erased (POST /v2/consent/delete-data)`);
  }
}

const SEALED = Symbol('SealedJobResult');

/**
 * A result made from one customer's data (a customer's copy, docs/adr/0068):
 * the worker stores its envelope sealed under the data key of `subject` (the
 * customer's, `customerDataKeySubject`) with the id `keyId`, the key the
 * request was accepted under. Erasing the customer destroys that key: the
 * stored result no longer opens, and the job answers 410 JOB_RESULT_ERASED.
 * When that key is gone before the result is written (the customer was erased
 * while the job waited or ran), nothing is written and the job fails with
 * JOB_RESULT_ERASED. Branded, so no result `data` is ever taken for one.
 */
export interface SealedJobResult {
  readonly [SEALED]: true;
  readonly subject: string;
  readonly keyId: string;
  readonly data: Record<string, unknown>;
}

/** What a job kind answers for a result to be kept sealed under a customer's key. */
export function sealedJobResult(subject: string, keyId: string, data: Record<string, unknown>): SealedJobResult {
  return { [SEALED]: true, subject, keyId, data };
}

export function isSealedJobResult(result: unknown): result is SealedJobResult {
  return typeof result === 'object' && result !== null && (result as Partial<SealedJobResult>)[SEALED] === true;
}
