import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { LANGUAGE_CODES, MAX_TRANSLATE_CHARACTERS, type LanguageCode } from '../../domain/languages.js';

/** POST /v2/language/translate. */
export class TranslateTextRequest {
  @ApiProperty({ description: `The text to translate, 1–${MAX_TRANSLATE_CHARACTERS} characters`, example: 'Where is the nearest hospital?' })
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_TRANSLATE_CHARACTERS)
  text: string;

  @ApiProperty({ description: 'Language of `text`', enum: LANGUAGE_CODES, example: 'en' })
  @IsIn(LANGUAGE_CODES, { message: `from must be one of ${LANGUAGE_CODES.join(', ')}` })
  from: LanguageCode;

  @ApiProperty({ description: 'Language to translate into; one of `from` and `to` is `en`', enum: LANGUAGE_CODES, example: 'tw' })
  @IsIn(LANGUAGE_CODES, { message: `to must be one of ${LANGUAGE_CODES.join(', ')}` })
  to: LanguageCode;
}
