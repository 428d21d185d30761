import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import type { NarrationStatus } from '../../domain/landmark-reports.js';

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
