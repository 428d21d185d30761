import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, Matches } from 'class-validator';
import { CustomerRequest } from '../../consent.requests.js';
import { CONSENT_PURPOSES, DEFAULT_SCOPE, SCOPE_ENTRY, SCOPE_MAX_ENTRIES, type ConsentPurpose } from '../../domain/consent.js';

/** POST /v2/consent/grant. */
export class GrantConsentRequest extends CustomerRequest {
  @ApiPropertyOptional({ enum: CONSENT_PURPOSES, default: 'unspecified' })
  @IsOptional()
  @IsIn(CONSENT_PURPOSES, { message: `purpose must be one of ${CONSENT_PURPOSES.join(', ')}` })
  purpose?: ConsentPurpose;

  @ApiPropertyOptional({
    type: [String],
    description: 'What data may be collected; duplicates are dropped',
    default: DEFAULT_SCOPE,
    minItems: 1,
    maxItems: SCOPE_MAX_ENTRIES,
    example: ['location'],
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(SCOPE_MAX_ENTRIES)
  @Matches(SCOPE_ENTRY, { each: true, message: 'each scope entry must be 1-64 characters of a-z, 0-9, "_", "." and "-", starting with a letter' })
  scope?: string[];
}
