import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsISO8601, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { OptionalNotNull } from '../../../../platform/src/index.js';
import { CustomerRequest } from '../../consent.requests.js';
import {
  CONSENT_CHANNELS,
  CONSENT_PURPOSES,
  DEFAULT_SCOPE,
  NOTICE_LANGUAGE,
  NOTICE_SHA256,
  NOTICE_VERSION,
  PROOF_KINDS,
  PROOF_REFERENCE,
  PROOF_REFERENCE_MAX,
  PROOF_REFERENCE_MESSAGE,
  SCOPE_ENTRY,
  SCOPE_MAX_ENTRIES,
  type ConsentChannel,
  type ConsentPurpose,
  type ProofKind,
} from '../../domain/consent.js';
import { NOTICE_TEXT_MAX_BYTES } from '../../domain/consent-notice.js';

/**
 * The notice the customer was shown (docs/adr/0032, docs/adr/0059): its version, and its text (the service
 * computes the SHA-256) or the SHA-256 itself; for a version registered with PUT /v2/consent/notices/{version},
 * the version alone (and the language, when it is registered in several).
 */
export class ConsentNoticeRequest {
  @ApiProperty({ description: 'Your version label of the notice text', pattern: NOTICE_VERSION.source, example: '2026-11-v3' })
  @Matches(NOTICE_VERSION, { message: 'notice.version must be 1-64 characters of letters, digits and . _ : + -' })
  version: string;

  @ApiPropertyOptional({
    description:
      'SHA-256 of the exact notice text the customer saw (UTF-8 bytes), lower-case hex. Leave it out to send `text` instead, or for a registered version (the service fills it in); sent for a registered version, it must be the registered hash (else 422 NOTICE_MISMATCH)',
    pattern: NOTICE_SHA256.source,
  })
  @OptionalNotNull()
  @Matches(NOTICE_SHA256, { message: 'notice.sha256 must be 64 lower-case hex characters' })
  sha256?: string;

  @ApiPropertyOptional({ description: 'BCP 47 language tag of the notice (en, tw, ee, gaa, dag, fat…); may be left out for a version registered in one language', pattern: NOTICE_LANGUAGE.source, example: 'tw' })
  @OptionalNotNull()
  @Matches(NOTICE_LANGUAGE, { message: 'notice.language must be a BCP 47 language tag' })
  language?: string;

  @ApiPropertyOptional({
    description: `The notice's exact text (at most ${NOTICE_TEXT_MAX_BYTES} bytes of UTF-8): the service records its SHA-256, never the text itself`,
    maxLength: NOTICE_TEXT_MAX_BYTES,
  })
  @OptionalNotNull()
  @IsString({ message: 'notice.text must be a string' })
  @MaxLength(NOTICE_TEXT_MAX_BYTES, { message: `notice.text holds at most ${NOTICE_TEXT_MAX_BYTES} bytes of UTF-8` })
  text?: string;
}

/** What backs the customer's agreement; recorded as supplied, not verified by the service. */
export class ConsentProofRequest {
  @ApiProperty({ enum: PROOF_KINDS })
  @IsIn(PROOF_KINDS, { message: `proof.kind must be one of ${PROOF_KINDS.join(', ')}` })
  kind: ProofKind;

  @ApiProperty({
    description: 'The OTP transaction reference, or the device signature (e.g. base64url) over the notice hash: printable ASCII (U+0020-U+007E), not starting or ending with a space',
    minLength: 1,
    maxLength: PROOF_REFERENCE_MAX,
    pattern: PROOF_REFERENCE.source,
  })
  @IsString({ message: PROOF_REFERENCE_MESSAGE })
  @Matches(PROOF_REFERENCE, { message: PROOF_REFERENCE_MESSAGE })
  reference: string;
}

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

  @ApiPropertyOptional({ type: ConsentNoticeRequest, description: 'The notice the customer saw; absent: recorded as `unspecified`' })
  @IsOptional()
  @ValidateNested()
  @Type(() => ConsentNoticeRequest)
  notice?: ConsentNoticeRequest;

  @ApiPropertyOptional({ enum: CONSENT_CHANNELS, default: 'unspecified', description: 'How the customer gave consent' })
  @IsOptional()
  @IsIn(CONSENT_CHANNELS, { message: `channel must be one of ${CONSENT_CHANNELS.join(', ')}` })
  channel?: ConsentChannel;

  @ApiPropertyOptional({
    description: "When the customer agreed (ISO 8601, the capturing channel's clock): not before your account was opened, nor more than 5 minutes ahead of the service's clock (5 minutes of clock skew allowed either way)",
  })
  @IsOptional()
  @IsISO8601({ strict: true }, { message: 'captured_at must be an ISO 8601 time' })
  captured_at?: string;

  @ApiPropertyOptional({ type: ConsentProofRequest, description: 'An OTP reference or a device signature showing the customer (not the lender) agreed' })
  @IsOptional()
  @ValidateNested()
  @Type(() => ConsentProofRequest)
  proof?: ConsentProofRequest;
}
