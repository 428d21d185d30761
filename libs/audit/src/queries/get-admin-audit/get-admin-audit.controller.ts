import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AdminOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { AccessLogPageSchema } from '../access-log.answer.js';
import { GetAdminAuditQuery } from './get-admin-audit.handler.js';
import { GetAdminAuditRequest } from '../access-log.request.js';

@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/audit')
export class GetAdminAuditController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @AdminOnly()
  @ApiOperation({ summary: 'Platform-wide access log, newest first (operator key only)' })
  @ApiAnswer(AccessLogPageSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `account_id`, `from`, `to`, `limit` or `cursor`; READ_STORE_INVALID_CURSOR: a cursor from another query' })
  @ApiResponse({ status: 403, description: 'ADMIN_KEY_REQUIRED: the deployment has no operator key configured' })
  get(@Query() request: GetAdminAuditRequest): Promise<AnswerOf<typeof AccessLogPageSchema>> {
    return this.queries.execute(new GetAdminAuditQuery({ account_id: request.account_id, from: request.from, to: request.to, limit: request.limit ?? 100, cursor: request.cursor }));
  }
}
