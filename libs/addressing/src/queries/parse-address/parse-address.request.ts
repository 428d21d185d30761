import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { MAX_PARSE_TEXT_LENGTH } from '../../domain/address-text.js';

/** POST /v2/address/parse. */
export class ParseAddressRequest {
  @ApiProperty({
    description: 'Free text holding an address code: a hex code in any shape, or a GhanaPostGPS digital address',
    maxLength: MAX_PARSE_TEXT_LENGTH,
    example: 'deliver to 6q3-hqk-q4za, blue gate',
  })
  @IsString({ message: 'text must be a string' })
  @MaxLength(MAX_PARSE_TEXT_LENGTH, { message: `text must be at most ${MAX_PARSE_TEXT_LENGTH} characters` })
  text: string;
}
