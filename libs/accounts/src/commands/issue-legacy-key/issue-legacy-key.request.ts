import { ApiProperty } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsString, Length } from 'class-validator';
import { TIERS, type Tier } from '../../domain/api-key.js';

/** POST /v2/admin/keys (decisions.md, "Operator interface"). */
export class IssueLegacyKeyRequest {
  @ApiProperty({ maxLength: 100 })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ enum: TIERS })
  @IsIn(TIERS as Tier[])
  tier: Tier;
}
