import { Controller, Get, Headers, Inject, Optional, Query, Req, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JOB_SUBMISSIONS, JobAnswerSchema, type JobSubmissions } from '../../../../jobs/src/index.js';
import { AdminOnly, ApiAnswer, BankingOnly, callingAccount, type AnswerOf } from '../../../../platform/src/index.js';
import { AuditBundleSchema } from './export-audit-bundle.answer.js';
import { ExportAuditBundleQuery } from './export-audit-bundle.handler.js';
import { AdminExportAuditBundleRequest, ExportAuditBundleRequest } from './export-audit-bundle.request.js';

/** Issue 14: the calling banking account's own access trail as one bundle a third party verifies with the JWKS alone. */
@ApiTags('banking')
@ApiSecurity('api_key')
@Controller('v2/banking/audit-log')
export class ExportAuditBundleController {
  constructor(
    private readonly queries: QueryBus,
    // The jobs context's submitter (global in every composed api process; absent from a module mounted alone).
    @Optional() @Inject(JOB_SUBMISSIONS) private readonly jobs?: JobSubmissions,
  ) {}

  @Get('export')
  @BankingOnly()
  @ApiOperation({ summary: 'The access trail between from and to, with the links and signed checkpoints that prove it whole (check with tools/verify-audit-bundle.mjs and /v2/.well-known/jwks.json)' })
  @ApiAnswer(AuditBundleSchema)
  @ApiAnswer(JobAnswerSchema, {
    status: 202,
    description: '`Prefer: respond-async` (RFC 7240): the export runs as a job (kind `audit.export`); `data` is the Job, `Location` is /v2/jobs/{id}, and GET /v2/jobs/{id}/result answers the same bundle once it succeeded',
  })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `from` or `to` (from must be before to; a range of more than the entry limit is refused naming `to`)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED, BANKING_ACCESS_REQUIRED (account not provisioned for banking) or IP_NOT_ALLOWED (outside the account allowlist)' })
  async get(
    @Req() request: FastifyRequest,
    @Query() query: ExportAuditBundleRequest,
    @Headers('prefer') prefer: string | undefined,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<AnswerOf<typeof AuditBundleSchema> | AnswerOf<typeof JobAnswerSchema>> {
    const accountId = callingAccount(request);
    if (this.jobs?.prefersAsync(prefer)) return this.jobs.accept(reply, accountId, 'audit.export', { account_id: accountId, from: query.from, to: query.to }, null);
    return this.queries.execute(new ExportAuditBundleQuery(accountId, { from: query.from, to: query.to }));
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
