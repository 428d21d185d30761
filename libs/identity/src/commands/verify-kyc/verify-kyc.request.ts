import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsOptional, ValidateNested } from 'class-validator';
import { MAX_REQUEST_POSITIONS } from '../../domain/kyc.js';
import { ACCURACY_DESCRIPTION, AccuracyRange, CustomerClaimRequest, PositionFields } from '../../http/identity.requests.js';

/** One position the caller collected from the customer's device. */
export class KycPosition extends PositionFields {
  @ApiPropertyOptional({ description: `${ACCURACY_DESCRIPTION}; without it the fix is taken as 100 m`, minimum: 0, maximum: 100_000, example: 15 })
  @IsOptional()
  @AccuracyRange()
  accuracy_m?: number;
}

/** POST /v2/kyc/verify. */
export class VerifyKycRequest extends CustomerClaimRequest {
  @ApiProperty({
    required: false,
    type: [KycPosition],
    maxItems: MAX_REQUEST_POSITIONS,
    description: "Positions of the customer's device you collected (e.g. by your app over a few days); with recorded pings, the evidence",
  })
  @IsOptional()
  @IsArray({ message: 'positions must be an array of positions' })
  @ArrayMaxSize(MAX_REQUEST_POSITIONS, { message: `positions holds at most ${MAX_REQUEST_POSITIONS} positions` })
  @ValidateNested({ each: true })
  @Type(() => KycPosition)
  positions?: KycPosition[];

  @ApiPropertyOptional({
    description: "Also use the pings already recorded for this customer (POST /v2/monitoring/pings, last 30 days) when the customer's location consent is granted. Default true.",
    default: true,
  })
  @IsOptional()
  @IsBoolean({ message: 'use_recorded_pings must be true or false' })
  use_recorded_pings?: boolean;
}
