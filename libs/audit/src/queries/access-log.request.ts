import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsISO8601, IsOptional, IsString, Length, Max, Min } from 'class-validator';

export class GetAdminAuditRequest {
  @ApiPropertyOptional({ description: 'Only this account; `platform` for the operator key and keys without an account' })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  account_id?: string;

  @ApiPropertyOptional({ description: 'Earliest access time, inclusive (ISO 8601)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ description: 'Latest access time, exclusive (ISO 8601)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page' })
  @IsOptional()
  @IsString()
  @Length(1, 512)
  cursor?: string;
}

/** GET /v2/banking/audit-log (and, the customer in the path, its per-customer log): the admin filters, without choosing the account (it is the caller's). */
export class GetBankingAuditLogRequest extends OmitType(GetAdminAuditRequest, ['account_id'] as const) {}
