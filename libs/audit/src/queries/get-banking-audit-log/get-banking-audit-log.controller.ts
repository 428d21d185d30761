import { Controller, Get, Query, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { BankingOnly, callingAccount } from '../../../../platform/src/index.js';
import type { AuditPage } from '../../public/access-log.read-model.js';
import { GetBankingAuditLogQuery } from './get-banking-audit-log.handler.js';
import { GetBankingAuditLogRequest } from './get-banking-audit-log.request.js';

/** interface.md, "Banking features": the calling account's own access history, newest first. */
@ApiTags('banking')
@ApiSecurity('api_key')
@Controller('v2/banking/audit-log')
export class GetBankingAuditLogController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @BankingOnly()
  @ApiOperation({ summary: "The calling account's access history (who called what, when, from where), paginated, filterable by time" })
  get(@Req() request: FastifyRequest, @Query() query: GetBankingAuditLogRequest): Promise<AuditPage> {
    return this.queries.execute(new GetBankingAuditLogQuery({ account_id: callingAccount(request), from: query.from, to: query.to, limit: query.limit ?? 100, cursor: query.cursor }));
  }
}
