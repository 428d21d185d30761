import { Controller, HttpCode, Inject, Optional, Post, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JOB_SUBMISSIONS, JobAnswerSchema, type JobSubmissions } from '../../../../jobs/src/index.js';
import { MAX_BULK_JOB_ITEMS } from '../../domain/bulk-job.js';
import { Expensive, itemsIn, RawBody, RawJsonBody, RawResponse, type RawJson } from '../../../../platform/src/index.js';
import { CHUNK_ITEMS, MAX_BULK_ITEMS } from '../../domain/bulk.js';
import { BulkHexcodeQuery } from './bulk-hexcode.handler.js';
import { BulkHexcodeRequest } from './bulk-hexcode.request.js';
import { ApiAnswer } from '../../../../platform/src/index.js';
import { BulkHexcodeAnswerSchema } from './bulk-hexcode.answer.js';

/** interface.md, "Addresses, hex codes and search": bulk hex coding, thousands of items per request. */
@ApiTags('addressing')
@ApiSecurity('api_key')
@Controller('v2/hexcode')
export class BulkHexcodeController {
  constructor(
    private readonly queries: QueryBus,
    // The jobs context's submitter (global in every composed api process; absent from the codec-only module).
    @Optional() @Inject(JOB_SUBMISSIONS) private readonly jobs?: JobSubmissions,
  ) {}

  @Post('bulk')
  @HttpCode(200)
  // Counts its items against the quota; at most EXPENSIVE_CONCURRENCY_PER_KEY at once per key (issue 31).
  @Expensive({ items: itemsIn('items', MAX_BULK_JOB_ITEMS) })
  // The body reaches the handler unparsed, with its items counted from the bytes: a thread parses, validates and codes it (ADR 0041).
  @RawJsonBody({ arrays: ['items'] })
  // The handler writes the envelope itself, as a stream.
  @RawResponse()
  @ApiOperation({
    summary: 'Code many points, or decode many codes, in one request',
    description:
      `Up to ${MAX_BULK_ITEMS} items answered at once; ${MAX_BULK_ITEMS + 1} to ${MAX_BULK_JOB_ITEMS} items with an account key run as a job (202, below); the body must also fit BODY_LIMIT_BYTES (1 MiB by default). The body is parsed, validated and coded off the event loop, and the answer ` +
      `is the usual envelope: \`{success: true, data: {items, count, failed, provenance}}\` (streamed, ${CHUNK_ITEMS} items at a time, while point items are named). ` +
      'Counts its number of items (the length of the body\'s `items` array, read before the body is validated) against the daily quota (X-RateLimit-Remaining shows them gone; a batch larger than the whole daily limit is 429 RATE_LIMITED, details.reason batch_over_quota); ' +
      'a key has at most EXPENSIVE_CONCURRENCY_PER_KEY (2) expensive requests in flight, over it 429 RATE_LIMITED with Retry-After (details.reason concurrency). ' +
      'Each result keeps its `index` (and `id` when given). A failed item carries `error {code, message, field}` (and `suggestions` for a mistyped code) and does not fail the batch. ' +
      'Decoded items carry the cell centre `lat`, `lng` and `accuracy_meters`; `provenance` (last, null when no item returned a point) is `geocoded_text` with the largest accuracy among them.',
  })
  @ApiAnswer(BulkHexcodeAnswerSchema, { requestExample: { resolution: 12, items: [{ id: 'shop-17', lat: 5.5503, lng: -0.2174 }, { code: '0QP-PAN-VTWH' }] } })
  @ApiAnswer(JobAnswerSchema, {
    status: 202,
    description: `More than ${MAX_BULK_ITEMS} and at most ${MAX_BULK_JOB_ITEMS} items (an account key): the batch runs as a job (kind \`hexcode.bulk\`, its items counted against the quota now); \`data\` is the Job, \`Location\` is /v2/jobs/{id}, and GET /v2/jobs/{id}/result answers the envelope the synchronous call would, items indexed across the whole batch. A request invalid as a whole fails the job with INVALID_PARAM`,
  })
  @ApiResponse({ status: 400, description: `INVALID_PARAM (field \`items\` or \`resolution\`) for the request as a whole; \`items\` above ${MAX_BULK_JOB_ITEMS} items, or above ${MAX_BULK_ITEMS} with a key without an account` })
  @ApiResponse({ status: 413, description: 'PAYLOAD_TOO_LARGE: the body exceeds BODY_LIMIT_BYTES' })
  @ApiResponse({
    status: 503,
    description:
      'HEXCODE_BUSY: every bulk thread is busy and its queue full, or the request ran past its time (`details.reason`); Retry-After says when to come back. SERVICE_UNAVAILABLE: a batch for a job while the job queue is unavailable',
  })
  // The validation pipe never sees the body (a thread validates it against this DTO): the document still describes it.
  @ApiBody({ type: BulkHexcodeRequest })
  async bulk(@Req() request: FastifyRequest, @RawBody() body: RawJson | undefined, @Res() reply: FastifyReply) {
    // Above the synchronous limit and within the job limit: a job (issue 48, item 2); the worker parses the body.
    const count = body?.arrayLength('items');
    const accountId = request.principal?.account_id;
    if (this.jobs && body && accountId && count !== undefined && count > MAX_BULK_ITEMS && count <= MAX_BULK_JOB_ITEMS) {
      const job = await this.jobs.submit(accountId, 'hexcode.bulk', { body: body.bytes.toString('utf8') }, count);
      return reply.status(202).header('location', this.jobs.locationOf(job.id)).header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send({ success: true, data: job });
    }
    const answer = await this.queries.execute(new BulkHexcodeQuery(body));
    return reply.status(200).header('content-type', 'application/json; charset=utf-8').header('cache-control', 'no-store').send(answer);
  }
}
