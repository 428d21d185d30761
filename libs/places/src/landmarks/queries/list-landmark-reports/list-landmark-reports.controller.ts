import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { AdminOnly } from '../../../../../platform/src/index.js';
import { ListLandmarkReportsQuery } from './list-landmark-reports.handler.js';
import { ListLandmarkReportsRequest } from './list-landmark-reports.request.js';

/** The operator's review queue: reported landmarks by narration status, most recently reported first. */
@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/landmarks/reports')
export class ListLandmarkReportsController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @AdminOnly()
  @ApiOperation({ summary: 'Reported landmarks by narration status (default: those awaiting review)' })
  @ApiResponse({ status: 200, description: '`{items: [{id, slug, reports, narration_status, last_reported_at, excluded_at, reviewed_at, review_decision}], next_cursor}`' })
  list(@Query() request: ListLandmarkReportsRequest) {
    return this.queries.execute(new ListLandmarkReportsQuery(request.status ?? 'excluded_pending_review', request.limit ?? 50, request.cursor));
  }
}
