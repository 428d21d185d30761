import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export const MAX_LANDMARK_LIMIT = 50;
export const DEFAULT_LANDMARK_LIMIT = 10;

/** What every landmark list takes: page size, the photo filter and the page token. */
export class LandmarkListRequest {
  @ApiPropertyOptional({ minimum: 1, maximum: MAX_LANDMARK_LIMIT, default: DEFAULT_LANDMARK_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(MAX_LANDMARK_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: '`true` returns only landmarks with a photo (`photo_url` not null); `false` does not filter', enum: ['true', 'false'] })
  @IsOptional()
  @IsIn(['true', 'false'], { message: 'has_photo must be true or false' })
  has_photo?: 'true' | 'false';

  @ApiPropertyOptional({ description: 'next_cursor of the previous page' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  cursor?: string;
}
