import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { NOTICE_LANGUAGE } from '../../domain/consent.js';
import { NOTICE_TEXT_MAX_BYTES } from '../../domain/consent-notice.js';

/** PUT /v2/consent/notices/{version}: one language of a notice version, with its exact text (docs/adr/0059). */
export class RegisterConsentNoticeRequest {
  @ApiProperty({ description: 'BCP 47 language tag of this text (en, en-GH, tw, ee, gaa, dag, fat…)', pattern: NOTICE_LANGUAGE.source, example: 'en-GH' })
  @Matches(NOTICE_LANGUAGE, { message: 'language must be a BCP 47 language tag' })
  language: string;

  @ApiProperty({
    description: `The notice's exact text as the customer sees it (at most ${NOTICE_TEXT_MAX_BYTES} bytes of UTF-8). Its SHA-256 is taken over these bytes as sent: line endings, spaces and Unicode form included`,
    minLength: 1,
    maxLength: NOTICE_TEXT_MAX_BYTES,
  })
  @IsString({ message: 'text must be a string' })
  @MaxLength(NOTICE_TEXT_MAX_BYTES, { message: `text holds at most ${NOTICE_TEXT_MAX_BYTES} bytes of UTF-8` })
  text: string;
}
