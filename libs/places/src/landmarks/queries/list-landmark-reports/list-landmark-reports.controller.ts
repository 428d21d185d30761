import { Controller, Get, Query } from '@nestjs/common';
import { ApiOperation, ApiPropertyOptional, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { AdminOnly } from '../../../../../platform/src/index.js';
import type { NarrationStatus } from '../../domain/landmark-reports.js';
import { LandmarkReports } from '../../landmark-reports.js';

const STATUSES: NarrationStatus[] = ['excluded_pending_review', 'excluded', 'candidate'];

export class ListLandmarkReportsRequest {
  @ApiPropertyOptional({ enum: STATUSES, default: 'excluded_pending_review' })
  @IsOptional()
  @IsIn(STATUSES, { message: `status must be one of ${STATUSES.join(', ')}` })
  status?: NarrationStatus;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional()
  @IsOptional()
  @IsString()
  @Length(1, 512)
  cursor?: string;
}

/** The operator's review queue: reported landmarks by narration status, most recently reported first. */
@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/landmarks/reports')
export class ListLandmarkReportsController {
  constructor(private readonly reports: LandmarkReports) {}

  @Get()
  @AdminOnly()
  @ApiOperation({ summary: 'Reported landmarks by narration status (default: those awaiting review)' })
  @ApiResponse({ status: 200, description: '`{items: [{id, slug, reports, narration_status, last_reported_at, excluded_at, reviewed_at, review_decision}], next_cursor}`' })
  list(@Query() request: ListLandmarkReportsRequest) {
    return this.reports.list(request.status ?? 'excluded_pending_review', request.limit ?? 50, request.cursor);
  }
}
