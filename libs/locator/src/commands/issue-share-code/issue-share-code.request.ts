import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsOptional, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { MAX_LABEL_LENGTH, MAX_SHARE_FOR_S, MIN_SHARE_FOR_S } from '../../domain/share.js';

/** POST /v2/locator/share-token; every field optional (an empty body or `{}` mints a code for a pairing until revoked). */
export class IssueShareCodeRequest {
  @ApiPropertyOptional({
    description: `How long the pairing lasts once the code is redeemed, in seconds (${MIN_SHARE_FOR_S}–${MAX_SHARE_FOR_S}); absent: until revoked. Enforced at every read: after it, the viewer gets LOCATION_NOT_SHARED.`,
    minimum: MIN_SHARE_FOR_S,
    maximum: MAX_SHARE_FOR_S,
    example: 3600,
  })
  @IsOptional()
  @IsInt({ message: 'share_for_s must be an integer number of seconds' })
  @Min(MIN_SHARE_FOR_S)
  @Max(MAX_SHARE_FOR_S)
  share_for_s?: number;

  @ApiPropertyOptional({ description: `Your own note on whom the code is for, shown to you in GET /v2/locator/viewers (1–${MAX_LABEL_LENGTH} characters)`, example: 'Mum' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_LABEL_LENGTH)
  label?: string;
}
