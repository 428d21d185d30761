import { ApiProperty } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { GHANAIAN_LANGUAGES, type LanguageCode } from '../../domain/languages.js';

/** POST /v2/language/transcribe?language=…; the audio is the body. */
export class TranscribeSpeechRequest {
  @ApiProperty({ description: 'Language spoken in the recording', enum: GHANAIAN_LANGUAGES, example: 'tw' })
  @IsIn(GHANAIAN_LANGUAGES as LanguageCode[], { message: `language must be one of ${GHANAIAN_LANGUAGES.join(', ')}` })
  language: LanguageCode;
}
