import { Controller, Get, Inject, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { AccessRecorder, accessStream } from '../../../../audit/src/index.js';
import { AdminOnly, BankingOnly, CLOCK, EVENT_STORE, type Clock, type EventStore } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { buildBundle, type AuditBundle } from '../../export/audit-bundle.js';
import { AdminExportAuditBundleRequest, ExportAuditBundleRequest } from './export-audit-bundle.request.js';

/** Issue 14: the calling banking account's own access trail as one bundle a third party verifies with the JWKS alone. */
@ApiTags('banking')
@ApiSecurity('api_key')
@Controller('v2/banking/audit-log')
export class ExportAuditBundleController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly recorder: AccessRecorder,
  ) {}

  @Get('export')
  @BankingOnly()
  @ApiOperation({ summary: 'The access trail between from and to, with the links and signed checkpoints that prove it whole (check with tools/verify-audit-bundle.mjs and /v2/.well-known/jwks.json)' })
  async get(@Req() request: FastifyRequest, @Query() query: ExportAuditBundleRequest): Promise<AuditBundle> {
    await this.recorder.applied();
    return buildBundle(this.events, this.clock, accessStream(callingAccount(request)), { from: query.from, to: query.to });
  }
}

/** The operator's equivalent, for any account's chain (or `platform`). */
@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/audit')
export class AdminExportAuditBundleController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly recorder: AccessRecorder,
  ) {}

  @Get('export')
  @AdminOnly()
  @ApiOperation({ summary: "An account's access trail as a verifiable bundle (operator key only)" })
  async get(@Query() query: AdminExportAuditBundleRequest): Promise<AuditBundle> {
    await this.recorder.applied();
    return buildBundle(this.events, this.clock, accessStream(query.account_id === 'platform' ? null : query.account_id), { from: query.from, to: query.to });
  }
}
