import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export const DAYS_DEFAULT = 7;
export const DAYS_MAX = 90;
export const LIMIT_DEFAULT = 50;
export const LIMIT_MAX = 200;

/** GET /v2/webhooks/deliveries. */
export class ListDeliveriesRequest {
  @ApiPropertyOptional({ description: 'Deliveries created in the last N days', minimum: 1, maximum: DAYS_MAX, default: DAYS_DEFAULT })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'days must be an integer' })
  @Min(1)
  @Max(DAYS_MAX)
  days?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: LIMIT_MAX, default: LIMIT_DEFAULT })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(LIMIT_MAX)
  limit?: number;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page' })
  @IsOptional()
  @IsString()
  @Length(1, 512)
  cursor?: string;
}
