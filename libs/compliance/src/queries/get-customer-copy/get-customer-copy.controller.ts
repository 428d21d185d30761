import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, callingAccount } from '../../../../platform/src/index.js';
import { GetCustomerCopyQuery } from './get-customer-copy.handler.js';
import { GetCustomerCopyRequest } from './get-customer-copy.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { CustomerCopySchema } from './get-customer-copy.answer.js';

/**
 * Issue 30: a customer's right of access (Act 843). The calling account asks
 * for one of its customers; the answer is signed so the customer (or their
 * advocate) can check it offline with the JWKS. POST because it is a request
 * the account acts on for someone else, audited in its access chain and
 * rate-limited; it changes nothing.
 */
@ApiTags('consent')
@ApiSecurity('api_key')
@Controller('v2/consent')
export class GetCustomerCopyController {
  constructor(private readonly queries: QueryBus) {}

  @Post('access-request')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({
    summary:
      "Everything the account holds about one customer — consents with their receipts, the location history (pings, drift and geofence events) or the fact of its erasure, verifications and certificates, webhook deliveries naming them — as a document and a compact JWS (EdDSA) over it, verifiable with /v2/.well-known/jwks.json; the location history, verifications and deliveries are paginated, each with its own next_cursor (null on its last page); ACCESS_REQUESTS_PER_ACCOUNT_PER_HOUR copies per account per hour, then 429 with Retry-After",
  })
  @ApiAnswer(CustomerCopySchema, { requestExample: { customer_id: 'cust-8841', limit: 500 } })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: ACCESS_REQUESTS_PER_ACCOUNT_PER_HOUR copies per account per hour; wait Retry-After seconds (also `error.details.retry_after_s`)' })
  async post(@Req() request: FastifyRequest, @Body() body: GetCustomerCopyRequest): Promise<AnswerOf<typeof CustomerCopySchema>> {
    return this.queries.execute(
      new GetCustomerCopyQuery(callingAccount(request), body.customer_id, body.cursor ?? null, body.limit ?? 500, { verifications: body.verifications_cursor ?? null, deliveries: body.deliveries_cursor ?? null }),
    );
  }
}
