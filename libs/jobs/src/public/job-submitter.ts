import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { BackendUnavailableError, JOB_QUEUE, type JobQueue } from '../../../platform/src/index.js';
import { RecordJobCommand } from '../commands/record-job/record-job.handler.js';
import type { JobSubmissions } from '../job-submissions.port.js';
import { jobLocation, publicJob } from './job.answer.js';
import { prefersAsync } from './job-kind.js';

/** The queue every job goes on (processed by the worker role: docs/guides/jobs.md). */
export const JOBS_QUEUE = 'jobs';

/** What a job carries on the queue: the input stays off the event store. */
export interface QueuedJob<Input = unknown> {
  account_id: string;
  job_id: string;
  kind: string;
  input: Input;
}

/** Tries of a job; a run that throws something other than a DomainError (a worker stopped, a store away) is tried again. */
export const JOB_ATTEMPTS = 3;

/**
 * How an endpoint turns its work into a job (api side): records JobQueued in
 * the job's stream, puts the job on the queue and answers what a 202 carries.
 * The job is recorded first, so GET /v2/jobs/{id} knows it as soon as the
 * 202 is sent.
 */
@Injectable()
export class JobSubmitter implements JobSubmissions {
  constructor(
    private readonly bus: CommandBus,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
  ) {}

  async submit<Input>(accountId: string, kind: string, input: Input, total: number | null): Promise<ReturnType<typeof publicJob>> {
    const jobId = `job_${randomBytes(16).toString('hex')}`;
    const { state } = await this.bus.execute(new RecordJobCommand({ type: 'Queue', account_id: accountId, job_id: jobId, kind, total }));
    const data: QueuedJob<Input> = { account_id: accountId, job_id: jobId, kind, input };
    try {
      await this.queue.add(JOBS_QUEUE, kind, data, { jobId, attempts: JOB_ATTEMPTS, backoff: { type: 'exponential', delayMs: 1_000, maxDelayMs: 30_000 } });
    } catch {
      // The queue is away: the job would stay queued for ever. It fails at once, and the request is answered 503.
      await this.bus.execute(new RecordJobCommand({ type: 'Fail', account_id: accountId, job_id: jobId, error: { code: 'SERVICE_UNAVAILABLE', message: 'the job queue is unavailable; submit the job again' } }));
      throw new BackendUnavailableError('the job queue is unavailable; try again shortly');
    }
    return publicJob(jobId, state);
  }

  /** Submits, then sets the answer's status to 202 and its Location; the route returns the job (the envelope wraps it). */
  async accept<Input>(reply: FastifyReply, accountId: string, kind: string, input: Input, total: number | null): Promise<ReturnType<typeof publicJob>> {
    const job = await this.submit(accountId, kind, input, total);
    reply.status(202).header('location', jobLocation(job.id));
    return job;
  }

  prefersAsync(header: string | string[] | undefined): boolean {
    return prefersAsync(header);
  }

  locationOf(jobId: string): string {
    return jobLocation(jobId);
  }
}
