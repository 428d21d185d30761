import { Controller, Get, Param, Query, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiParam, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, BankingOnly, CALLER_ID, callingAccount, parseCallerId, type AnswerOf } from '../../../../platform/src/index.js';
import { AccessLogPageSchema } from '../access-log.answer.js';
import { GetCustomerAccessLogQuery } from './get-customer-access-log.handler.js';
import { GetCustomerAccessLogRequest } from './get-customer-access-log.request.js';

/**
 * Issue 51: who looked at one customer. The calling account's access entries
 * that named the customer (in the path, the query or the body as
 * `customer_id`, or as the one customer of a ping batch), newest first; the
 * same entries, hash-chained, are in GET /v2/banking/audit-log/export.
 * Customer ids are the account's own: another account's customers are never
 * found here.
 */
@ApiTags('banking')
@ApiSecurity('api_key')
@Controller('v2/banking/audit-log')
export class GetCustomerAccessLogController {
  constructor(private readonly queries: QueryBus) {}

  @Get('customers/:customer_id')
  @BankingOnly()
  @ApiOperation({ summary: "Who looked at one customer: the calling account's access entries that named it (customer_id in the path, query or body), newest first, paginated, filterable by time" })
  @ApiParam({ name: 'customer_id', description: 'Your own id of the customer', schema: { type: 'string', pattern: CALLER_ID.source, minLength: 1, maxLength: 128 } })
  @ApiAnswer(AccessLogPageSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `customer_id`, `from`, `to`, `limit` or `cursor`; READ_STORE_INVALID_CURSOR: a cursor from another query' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED, BANKING_ACCESS_REQUIRED (account not provisioned for banking) or IP_NOT_ALLOWED (outside the account allowlist)' })
  get(@Req() request: FastifyRequest, @Param('customer_id') customer: string, @Query() query: GetCustomerAccessLogRequest): Promise<AnswerOf<typeof AccessLogPageSchema>> {
    return this.queries.execute(
      new GetCustomerAccessLogQuery({
        account_id: callingAccount(request),
        customer_id: parseCallerId(customer, 'customer_id'),
        from: query.from,
        to: query.to,
        limit: query.limit ?? 100,
        cursor: query.cursor,
      }),
    );
  }
}
