import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, MaxLength } from 'class-validator';

/** PUT /v2/admin/accounts/{accountId}/ip-allowlist; each entry is parsed strictly by IpAllowlist. */
export class ReplaceIpAllowlistRequest {
  @ApiProperty({ type: [String], maxItems: 1000, example: ['203.0.113.7', '10.0.0.0/8', '2001:db8::/32'], description: 'Exact IPs and CIDR ranges; empty removes the allowlist' })
  @IsArray()
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  @MaxLength(64, { each: true })
  entries: string[];
}
