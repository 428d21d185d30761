import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AdminOnly } from '../../../../platform/src/index.js';
import { GetAdminAuditQuery, type AuditPage } from './get-admin-audit.query.js';
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
    return this.queries.execute(
      new GetAdminAuditQuery(request.account_id, request.from, request.to, request.limit ?? 100, request.cursor),
    );
  }
}
