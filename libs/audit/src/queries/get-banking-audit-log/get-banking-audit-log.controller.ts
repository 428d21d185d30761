import { Controller, Get, Query, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiSecurity, ApiTags, OmitType } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { BankingOnly } from '../../../../platform/src/index.js';
import { GetAdminAuditQuery, type AuditPage } from '../get-admin-audit/get-admin-audit.query.js';
import { GetAdminAuditRequest } from '../get-admin-audit/get-admin-audit.request.js';

export class GetBankingAuditLogRequest extends OmitType(GetAdminAuditRequest, ['account_id'] as const) {}

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
    // The guard admits only account keys here, so the principal has an account.
    const accountId = request.principal?.account_id as string;
    return this.queries.execute(new GetAdminAuditQuery(accountId, query.from, query.to, query.limit ?? 100, query.cursor));
  }
}
