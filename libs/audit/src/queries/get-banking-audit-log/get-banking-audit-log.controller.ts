import { Controller, Get, Query, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, BankingOnly, callingAccount, type AnswerOf } from '../../../../platform/src/index.js';
import { AccessLogPageSchema } from '../access-log.answer.js';
import { GetBankingAuditLogQuery } from './get-banking-audit-log.handler.js';
import { GetBankingAuditLogRequest } from '../access-log.request.js';

/** interface.md, "Banking features": the calling account's own access history, newest first. */
@ApiTags('banking')
@ApiSecurity('api_key')
@Controller('v2/banking/audit-log')
export class GetBankingAuditLogController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @BankingOnly()
  @ApiOperation({ summary: "The calling account's access history (who called what, when, from where), paginated, filterable by time" })
  @ApiAnswer(AccessLogPageSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `from`, `to`, `limit` or `cursor`; READ_STORE_INVALID_CURSOR: a cursor from another query' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED, BANKING_ACCESS_REQUIRED (account not provisioned for banking) or IP_NOT_ALLOWED (outside the account allowlist)' })
  get(@Req() request: FastifyRequest, @Query() query: GetBankingAuditLogRequest): Promise<AnswerOf<typeof AccessLogPageSchema>> {
    return this.queries.execute(new GetBankingAuditLogQuery({ account_id: callingAccount(request), from: query.from, to: query.to, limit: query.limit ?? 100, cursor: query.cursor }));
  }
}
