import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export const CONSENTS_DEFAULT_LIMIT = 50;
export const CONSENTS_MAX_LIMIT = 200;
export const CONSENT_STATUS_FILTER = ['granted', 'revoked'] as const;

/** GET /v2/consents. */
export class ListConsentsRequest {
  @ApiPropertyOptional({ enum: CONSENT_STATUS_FILTER, description: 'Only consents in this state' })
  @IsOptional()
  @IsIn(CONSENT_STATUS_FILTER, { message: `status must be one of ${CONSENT_STATUS_FILTER.join(', ')}` })
  status?: (typeof CONSENT_STATUS_FILTER)[number];

  @ApiPropertyOptional({ minimum: 1, maximum: CONSENTS_MAX_LIMIT, default: CONSENTS_DEFAULT_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(CONSENTS_MAX_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  cursor?: string;
}
