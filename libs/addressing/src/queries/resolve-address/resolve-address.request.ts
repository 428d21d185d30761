import { ApiProperty } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { MAX_ADDRESS_LENGTH } from '../../domain/resolve-address.js';

/** GET /v2/address/resolve. */
export class ResolveAddressRequest {
  @ApiProperty({
    description:
      'What to resolve: a hex code in any shape POST /v2/address/parse recognises (compact, hyphenated, spaced, any case, inside other text), ' +
      'or the name of a place or structure ("Korle Bu Teaching Hospital", "Madina"). A GhanaPostGPS address is recognised and refused with 422 ADDRESS_NOT_CONVERTIBLE, its region decoded in `error.details`.',
    maxLength: MAX_ADDRESS_LENGTH,
    example: '6Q3-HQK-Q4ZA',
  })
  @IsString({ message: 'address must be a string' })
  @MaxLength(MAX_ADDRESS_LENGTH, { message: `address must be at most ${MAX_ADDRESS_LENGTH} characters` })
  address: string;
}
