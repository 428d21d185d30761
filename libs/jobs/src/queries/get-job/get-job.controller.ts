import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, callingAccount, CLOCK, RawResponse, type AnswerOf, type Clock } from '../../../../platform/src/index.js';
import { JOB_RESULT_ERASED, JobResultErasedError, JobResultNotFoundError, parseJobId, type JobState } from '../../domain/job.js';
import { JobResults } from '../../results/job-results.js';
import { JobAnswerSchema, JobResultAnswerSchema, publicJob } from '../../public/job.answer.js';
import { GetJobQuery } from './get-job.handler.js';

const NOT_FOUND = "JOB_NOT_FOUND: no such job under the calling account (another account's job is not found either)";
const ERASED =
  "JOB_RESULT_ERASED: the job's result was made from a customer's data (a customer's copy) and that customer's data was erased (POST /v2/consent/delete-data), before or after the result was made; it will never be answered";

/** Issue 48, item 2: a job is a resource of the account that submitted it. */
@ApiTags('jobs')
@ApiSecurity('api_key')
@Controller('v2/jobs')
export class GetJobController {
  constructor(
    private readonly queries: QueryBus,
    private readonly results: JobResults,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get(':id')
  @AccountOnly()
  @ApiParam({ name: 'id', description: 'The job id (job_…), from the Location of the 202 that accepted it' })
  @ApiOperation({ summary: "A job's status (queued, running, succeeded, failed), progress, and its result's link or its error" })
  @ApiAnswer(JobAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`id`)' })
  @ApiResponse({ status: 404, description: NOT_FOUND })
  @ApiResponse({ status: 410, description: ERASED })
  async get(@Req() request: FastifyRequest, @Param('id') id: string): Promise<AnswerOf<typeof JobAnswerSchema>> {
    const jobId = parseJobId(id);
    const accountId = callingAccount(request);
    const state = await this.queries.execute(new GetJobQuery(accountId, jobId));
    await this.refuseErased(accountId, jobId, state);
    return publicJob(jobId, state);
  }

  /** 410 once the customer a job's result was made from was erased (docs/adr/0068): its state would only point at nothing. */
  private async refuseErased(accountId: string, jobId: string, state: JobState): Promise<void> {
    const erasedFirst = state.status === 'failed' && state.error?.code === JOB_RESULT_ERASED;
    if (erasedFirst || (state.status === 'succeeded' && (await this.results.erased(accountId, jobId)))) throw new JobResultErasedError(jobId);
  }

  @Get(':id/result')
  @AccountOnly()
  @RawResponse()
  @ApiParam({ name: 'id', description: 'The job id (job_…)' })
  @ApiOperation({ summary: "A succeeded job's result: the answer the synchronous call gives, in the same envelope, until `result.expires_at`" })
  @ApiAnswer(JobResultAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`id`)' })
  @ApiResponse({ status: 404, description: `${NOT_FOUND}; JOB_RESULT_NOT_FOUND: the job has not succeeded, or its result is past its retention` })
  @ApiResponse({ status: 410, description: ERASED })
  async result(@Req() request: FastifyRequest, @Param('id') id: string, @Res() reply: FastifyReply) {
    const jobId = parseJobId(id);
    const accountId = callingAccount(request);
    const state = await this.queries.execute(new GetJobQuery(accountId, jobId));
    await this.refuseErased(accountId, jobId, state);
    if (state.status !== 'succeeded') throw new JobResultNotFoundError(jobId, `it is ${state.status}`);
    if (Date.parse(state.expires_at!) <= this.clock.now().getTime()) throw new JobResultNotFoundError(jobId, `it expired at ${state.expires_at}`);
    const stored = await this.results.read(accountId, jobId);
    // Erased between the check above and the read: still never answered.
    if (stored.state === 'erased') throw new JobResultErasedError(jobId);
    if (stored.state === 'none') throw new JobResultNotFoundError(jobId, 'it is no longer kept');
    return reply
      .status(200)
      .header('content-type', 'application/json; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(stored.state === 'plain' ? stored.stream : stored.bytes);
  }
}
