import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../../../platform/src/index.js';
import type { AuditPage } from '../../public/access-log.read-model.js';
import { GetAdminAuditQuery } from './get-admin-audit.handler.js';
import { GetAdminAuditRequest } from './get-admin-audit.request.js';

@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/audit')
export class GetAdminAuditController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @AdminOnly()
  @ApiOperation({ summary: 'Platform-wide access log, newest first (operator key only)' })
  get(@Query() request: GetAdminAuditRequest): Promise<AuditPage> {
    return this.queries.execute(new GetAdminAuditQuery({ account_id: request.account_id, from: request.from, to: request.to, limit: request.limit ?? 100, cursor: request.cursor }));
  }
}
