import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsISO8601, IsOptional, Matches } from 'class-validator';

export class ExportAuditBundleRequest {
  @ApiPropertyOptional({ description: 'Earliest access time, inclusive (ISO 8601)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  from?: string;

  @ApiPropertyOptional({ description: 'Latest access time, exclusive (ISO 8601)' })
  @IsOptional()
  @IsISO8601({ strict: true })
  to?: string;
}

export class AdminExportAuditBundleRequest extends ExportAuditBundleRequest {
  @ApiProperty({ description: 'The account whose trail to export; `platform` for the operator key and keys without an account' })
  @Matches(/^(acct_[A-Za-z0-9]{1,64}|platform)$/)
  account_id!: string;
}
