import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, Matches } from 'class-validator';

export class GetAccountChangesRequest {
  @ApiProperty({ description: 'Start, exclusive (ISO 8601): the state as of this instant is the starting point', example: '2026-03-01T00:00:00Z' })
  @IsISO8601({ strict: true })
  from!: string;

  @ApiProperty({ description: 'End, inclusive (ISO 8601)', example: '2026-03-31T23:59:59Z' })
  @IsISO8601({ strict: true })
  to!: string;

  @ApiPropertyOptional({ description: "The caller's own account id (optional; any other is refused with 403 ACCOUNT_MISMATCH)" })
  @IsOptional()
  @Matches(/^acct_[A-Za-z0-9]{1,64}$/)
  account_id?: string;
}
