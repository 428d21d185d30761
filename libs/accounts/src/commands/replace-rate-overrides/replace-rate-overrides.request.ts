import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import { MAX_RATE_OVERRIDE, type RateOverrides } from '../../domain/rate-overrides.js';

const rate = (group: string) => ({
  type: 'integer' as const,
  minimum: 1,
  maximum: MAX_RATE_OVERRIDE,
  description: `Requests a minute in the ${group} group, for all the account's keys together; left out: the tier's rate`,
});

/** PUT /v2/admin/accounts/{accountId}/rates: the whole set of overrides; a group left out keeps its tier's rate. */
export class ReplaceRateOverridesRequest implements RateOverrides {
  @ApiPropertyOptional(rate('routing'))
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_RATE_OVERRIDE)
  routing?: number;

  @ApiPropertyOptional(rate('transit'))
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_RATE_OVERRIDE)
  transit?: number;

  @ApiPropertyOptional(rate('navigation'))
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_RATE_OVERRIDE)
  navigation?: number;

  @ApiPropertyOptional(rate('language'))
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_RATE_OVERRIDE)
  language?: number;

  @ApiPropertyOptional(rate('other (every other /v2 endpoint)'))
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_RATE_OVERRIDE)
  other?: number;
}
