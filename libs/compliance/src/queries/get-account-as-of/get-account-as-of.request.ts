import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, Matches } from 'class-validator';

export class GetAccountAsOfRequest {
  @ApiProperty({ description: 'The instant to reconstruct (ISO 8601)', example: '2026-03-03T14:00:00Z' })
  @IsISO8601({ strict: true })
  at!: string;
}

export class OwnAccountAsOfRequest extends GetAccountAsOfRequest {
  @ApiPropertyOptional({ description: "The caller's own account id (optional; any other is refused with 403 ACCOUNT_MISMATCH)" })
  @IsOptional()
  @Matches(/^acct_[A-Za-z0-9]{1,64}$/)
  account_id?: string;
}
