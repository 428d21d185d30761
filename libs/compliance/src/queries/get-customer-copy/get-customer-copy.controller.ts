import { Body, Controller, Headers, HttpCode, Inject, Optional, Post, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JOB_SUBMISSIONS, JobAnswerSchema, type JobSubmissions } from '../../../../jobs/src/index.js';
import { AccountOnly, callingAccount, CLOCK, CONFIG, DATA_KEY_VAULT, RATE_LIMITER, SecretBox, type Clock, type Config, type DataKeyVault, type RateLimiter } from '../../../../platform/src/index.js';
import { CUSTOMER_COPY_KIND, customerCopyJobInput } from './customer-copy-job.module.js';
import { takeCopyAllowance } from './customer-copies.js';
import { GetCustomerCopyQuery } from './get-customer-copy.handler.js';
import { GetCustomerCopyRequest } from './get-customer-copy.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { CustomerCopySchema } from './get-customer-copy.answer.js';

/**
 * Issue 30: a customer's right of access (Act 843). The calling account asks
 * for one of its customers; the answer is signed so the customer (or their
 * advocate) can check it offline with the JWKS. POST because it is a request
 * the account acts on for someone else, audited in its access chain and
 * rate-limited; it changes nothing. With `Prefer: respond-async` the copy is
 * made by a worker as a job (docs/adr/0068), kept sealed under the customer's
 * data key, so an erasure of the customer leaves no readable copy.
 */
@ApiTags('consent')
@ApiSecurity('api_key')
@Controller('v2/consent')
export class GetCustomerCopyController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(CONFIG) private readonly config: Pick<Config, 'accessRequestsPerAccountPerHour'>,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(DATA_KEY_VAULT) private readonly vault: DataKeyVault,
    private readonly box: SecretBox,
    // The jobs context's submitter (global in every composed api process; absent from a module mounted alone).
    @Optional() @Inject(JOB_SUBMISSIONS) private readonly jobs?: JobSubmissions,
  ) {}

  @Post('access-request')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({
    summary:
      "Everything the account holds about one customer — consents with their receipts, the location history (pings, drift and geofence events) or the fact of its erasure, verifications and certificates, webhook deliveries naming them — as a document and a compact JWS (EdDSA) over it, verifiable with /v2/.well-known/jwks.json; the location history, verifications and deliveries are paginated, each with its own next_cursor (null on its last page); ACCESS_REQUESTS_PER_ACCOUNT_PER_HOUR copies per account per hour, then 429 with Retry-After",
  })
  @ApiAnswer(CustomerCopySchema, { requestExample: { customer_id: 'cust-8841', limit: 500 } })
  @ApiAnswer(JobAnswerSchema, {
    status: 202,
    description:
      "`Prefer: respond-async` (RFC 7240): the copy is made as a job (kind `customer.copy`, counted against ACCESS_REQUESTS_PER_ACCOUNT_PER_HOUR now); `data` is the Job, `Location` is /v2/jobs/{id}, and GET /v2/jobs/{id}/result answers the same signed copy once it succeeded. The result is kept sealed under the customer's data key: once the customer's data is erased (POST /v2/consent/delete-data) the job and its result answer 410 JOB_RESULT_ERASED, and a job still waiting then fails with JOB_RESULT_ERASED",
  })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: ACCESS_REQUESTS_PER_ACCOUNT_PER_HOUR copies per account per hour; wait Retry-After seconds (also `error.details.retry_after_s`)' })
  @ApiResponse({ status: 503, description: 'SERVICE_UNAVAILABLE: with `Prefer: respond-async`, the job queue is unavailable; try again shortly' })
  async post(
    @Req() request: FastifyRequest,
    @Body() body: GetCustomerCopyRequest,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AnswerOf<typeof CustomerCopySchema> | AnswerOf<typeof JobAnswerSchema>> {
    const accountId = callingAccount(request);
    const page = { cursor: body.cursor ?? null, limit: body.limit ?? 500, cursors: { verifications: body.verifications_cursor ?? null, deliveries: body.deliveries_cursor ?? null } };
    if (this.jobs?.prefersAsync(prefer)) {
      await takeCopyAllowance(this.limiter, this.config, this.clock, accountId);
      const input = await customerCopyJobInput(this.vault, this.box, accountId, body.customer_id, page);
      return this.jobs.accept(reply, accountId, CUSTOMER_COPY_KIND, input, null);
    }
    return this.queries.execute(new GetCustomerCopyQuery(accountId, body.customer_id, page.cursor, page.limit, page.cursors));
  }
}
