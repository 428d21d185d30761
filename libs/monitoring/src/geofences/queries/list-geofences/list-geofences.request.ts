import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { CUSTOMER_ID_MESSAGE } from '../../../../../platform/src/index.js';
import { CUSTOMER_ID } from '../../../domain/consent.js';

export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 200;

export class ListGeofencesRequest {
  @ApiPropertyOptional({ description: 'Only the fences created for this customer (account-wide fences are not included)', pattern: CUSTOMER_ID.source })
  @IsOptional()
  @Matches(CUSTOMER_ID, { message: CUSTOMER_ID_MESSAGE })
  customer_id?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: LIST_MAX_LIMIT, default: LIST_DEFAULT_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(LIST_MAX_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  cursor?: string;
}
