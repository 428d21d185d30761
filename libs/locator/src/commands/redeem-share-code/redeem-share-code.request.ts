import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { SHARE_CODE_MAX_INPUT } from '../../domain/share-code.js';

/** POST /v2/locator/redeem. */
export class RedeemShareCodeRequest {
  @ApiProperty({ description: 'The share code as given: any case, hyphens and spaces ignored, I/L read as 1 and O as 0', example: '7QK4-M2XD-9HRT' })
  @IsString()
  @MaxLength(SHARE_CODE_MAX_INPUT)
  code: string;
}
