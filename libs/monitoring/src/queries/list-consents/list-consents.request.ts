import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { CONSENT_RECORD_STATUSES, type ConsentRecordStatus } from '../../consent-record/consent-record.read-model.js';

export const CONSENTS_DEFAULT_LIMIT = 50;
export const CONSENTS_MAX_LIMIT = 200;

/** GET /v2/consents: decisions.md, "Lists are data.items with data.next_cursor". */
export class ListConsentsRequest {
  @ApiPropertyOptional({ enum: CONSENT_RECORD_STATUSES, description: 'Only records in this state (active: granted; revoked: revoked, data kept; erased: revoked and data deleted)' })
  @IsOptional()
  @IsIn(CONSENT_RECORD_STATUSES, { message: `status must be one of ${CONSENT_RECORD_STATUSES.join(', ')}` })
  status?: ConsentRecordStatus;

  @ApiPropertyOptional({ minimum: 1, maximum: CONSENTS_MAX_LIMIT, default: CONSENTS_DEFAULT_LIMIT })
  @IsOptional()
  @Type(() => Number)
  @IsInt({ message: 'limit must be an integer' })
  @Min(1)
  @Max(CONSENTS_MAX_LIMIT)
  limit?: number;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page (with the same status filter)' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  cursor?: string;
}
