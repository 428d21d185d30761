import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import { AdminOnly, ApiAnswer, type AnswerOf } from '../../../../../platform/src/index.js';
import { LandmarkReportsPageSchema } from './list-landmark-reports.answer.js';
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
  @ApiAnswer(LandmarkReportsPageSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `status`, `limit` or `cursor`; READ_STORE_INVALID_CURSOR: a cursor from another query' })
  @ApiResponse({ status: 403, description: 'ADMIN_KEY_REQUIRED: the deployment has no operator key configured' })
  list(@Query() request: ListLandmarkReportsRequest): Promise<AnswerOf<typeof LandmarkReportsPageSchema>> {
    return this.queries.execute(new ListLandmarkReportsQuery(request.status ?? 'excluded_pending_review', request.limit ?? 50, request.cursor));
  }
}
