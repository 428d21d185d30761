import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AdminOnly, ApiAnswer, BankingOnly, callingAccount, type AnswerOf } from '../../../../platform/src/index.js';
import { AuditBundleSchema } from './export-audit-bundle.answer.js';
import { ExportAuditBundleQuery } from './export-audit-bundle.handler.js';
import { AdminExportAuditBundleRequest, ExportAuditBundleRequest } from './export-audit-bundle.request.js';

/** Issue 14: the calling banking account's own access trail as one bundle a third party verifies with the JWKS alone. */
@ApiTags('banking')
@ApiSecurity('api_key')
@Controller('v2/banking/audit-log')
export class ExportAuditBundleController {
  constructor(private readonly queries: QueryBus) {}

  @Get('export')
  @BankingOnly()
  @ApiOperation({ summary: 'The access trail between from and to, with the links and signed checkpoints that prove it whole (check with tools/verify-audit-bundle.mjs and /v2/.well-known/jwks.json)' })
  @ApiAnswer(AuditBundleSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `from` or `to` (from must be before to; a range of more than the entry limit is refused naming `to`)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED, BANKING_ACCESS_REQUIRED (account not provisioned for banking) or IP_NOT_ALLOWED (outside the account allowlist)' })
  async get(@Req() request: FastifyRequest, @Query() query: ExportAuditBundleRequest): Promise<AnswerOf<typeof AuditBundleSchema>> {
    return this.queries.execute(new ExportAuditBundleQuery(callingAccount(request), { from: query.from, to: query.to }));
  }
}

/** The operator's equivalent, for any account's chain (or `platform`). */
@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/audit')
export class AdminExportAuditBundleController {
  constructor(private readonly queries: QueryBus) {}

  @Get('export')
  @AdminOnly()
  @ApiOperation({ summary: "An account's access trail as a verifiable bundle (operator key only)" })
  @ApiAnswer(AuditBundleSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `account_id` (acct_… or platform), `from` or `to`' })
  @ApiResponse({ status: 403, description: 'ADMIN_KEY_REQUIRED: the deployment has no operator key configured' })
  async get(@Query() query: AdminExportAuditBundleRequest): Promise<AnswerOf<typeof AuditBundleSchema>> {
    return this.queries.execute(new ExportAuditBundleQuery(query.account_id === 'platform' ? null : query.account_id, { from: query.from, to: query.to }));
  }
}
