import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { TIERS, type Tier } from '../../domain/api-key.js';

/** PUT /v2/admin/accounts/{accountId}/tier. */
export class ChangeTierRequest {
  @ApiProperty({ enum: TIERS })
  @IsIn(TIERS as Tier[])
  tier: Tier;
}
