import type { FastifyReply } from 'fastify';
import type { publicJob } from './public/job.answer.js';

/** A job as its 202 and GET /v2/jobs/{id} answer it. */
export type SubmittedJob = ReturnType<typeof publicJob>;

/**
 * How another context's endpoint turns its work into a job (issue 52, docs/adr/0066): the jobs context records
 * JobQueued, puts the job on the queue and answers what a 202 carries. Injected by JOB_SUBMISSIONS (global in every
 * composed api process; absent where the jobs context is not, so inject it optionally).
 */
export interface JobSubmissions {
  /** RFC 7240: whether the request asks for the job form of an answer given synchronously (`Prefer: respond-async`). */
  prefersAsync(header: string | string[] | undefined): boolean;
  /** Records and queues the job; 503 SERVICE_UNAVAILABLE when the queue is away. */
  submit<Input>(accountId: string, kind: string, input: Input, total: number | null): Promise<SubmittedJob>;
  /** Submits, then sets the answer's status to 202 and its Location; the route returns the job (the envelope wraps it). */
  accept<Input>(reply: FastifyReply, accountId: string, kind: string, input: Input, total: number | null): Promise<SubmittedJob>;
  /** The job's Location: /v2/jobs/{id}. */
  locationOf(jobId: string): string;
}

export const JOB_SUBMISSIONS = Symbol('JobSubmissions');
