import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';

/** GET /v2/lookup. */
export class LookupRequest {
  @ApiProperty({
    description: 'A hex code in any accepted shape: compact or hyphenated, any case (ADR 0009)',
    example: '6Q3-HQK-Q4ZA',
    maxLength: 40,
  })
  @IsString({ message: 'address must be a hex code' })
  address: string;
}
