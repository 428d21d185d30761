import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, callingAccount, CLOCK, RawResponse, type AnswerOf, type Clock } from '../../../../platform/src/index.js';
import { JobResultNotFoundError, parseJobId } from '../../domain/job.js';
import { JobResults } from '../../results/job-results.js';
import { JobAnswerSchema, JobResultAnswerSchema, publicJob } from '../../public/job.answer.js';
import { GetJobQuery } from './get-job.handler.js';

const NOT_FOUND = "JOB_NOT_FOUND: no such job under the calling account (another account's job is not found either)";

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
  async get(@Req() request: FastifyRequest, @Param('id') id: string): Promise<AnswerOf<typeof JobAnswerSchema>> {
    const jobId = parseJobId(id);
    return publicJob(jobId, await this.queries.execute(new GetJobQuery(callingAccount(request), jobId)));
  }

  @Get(':id/result')
  @AccountOnly()
  @RawResponse()
  @ApiParam({ name: 'id', description: 'The job id (job_…)' })
  @ApiOperation({ summary: "A succeeded job's result: the answer the synchronous call gives, in the same envelope, until `result.expires_at`" })
  @ApiAnswer(JobResultAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`id`)' })
  @ApiResponse({ status: 404, description: `${NOT_FOUND}; JOB_RESULT_NOT_FOUND: the job has not succeeded, or its result is past its retention` })
  async result(@Req() request: FastifyRequest, @Param('id') id: string, @Res() reply: FastifyReply) {
    const jobId = parseJobId(id);
    const accountId = callingAccount(request);
    const state = await this.queries.execute(new GetJobQuery(accountId, jobId));
    if (state.status !== 'succeeded') throw new JobResultNotFoundError(jobId, `it is ${state.status}`);
    if (Date.parse(state.expires_at!) <= this.clock.now().getTime()) throw new JobResultNotFoundError(jobId, `it expired at ${state.expires_at}`);
    const stream = await this.results.open(accountId, jobId);
    if (!stream) throw new JobResultNotFoundError(jobId, 'it is no longer kept');
    return reply.status(200).header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(stream);
  }
}
