import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Public } from '../../../../platform/src/index.js';
import { LANGUAGE_PAIRS, LANGUAGES, MAX_TRANSLATE_CHARACTERS } from '../../domain/languages.js';
import { TranslateTextQuery } from './translate-text.handler.js';
import { TranslateTextRequest } from './translate-text.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { TranslationSchema } from './translate-text.answer.js';

const CODES = Object.entries(LANGUAGES)
  .map(([code, name]) => `\`${code}\` ${name}`)
  .join(', ');

/** interface.md, "Routing, transit, weather, language": POST /v2/language/translate, public and throttled per IP. */
@ApiTags('language')
@Controller('v2/language')
export class TranslateTextController {
  constructor(private readonly queries: QueryBus) {}

  @Post('translate')
  @HttpCode(200)
  @Public()
  @ApiOperation({
    summary: 'Translate between English and a Ghanaian language',
    description:
      `Languages: ${CODES}. Pairs: English to each of the others and back (${LANGUAGE_PAIRS.join(', ')}). ` +
      `Text up to ${MAX_TRANSLATE_CHARACTERS} characters. Public, throttled per client IP (THROTTLE_LANGUAGE_PER_MINUTE). ` +
      'Machine translation by GhanaNLP (Khaya); nothing of the text is stored.',
  })
  @ApiAnswer(TranslationSchema, { requestExample: { text: 'How are you?', from: 'en', to: 'tw' } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`text`, `from`, `to`); UNSUPPORTED_LANGUAGE_PAIR (field `to`, details `{pair, supported_pairs}`)' })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: the per-IP throttle' })
  @ApiResponse({ status: 502, description: 'LANGUAGE_PROVIDER_ERROR: the provider failed' })
  @ApiResponse({ status: 503, description: 'LANGUAGE_QUOTA: the language services are not configured here, or the provider quota is used up (with Retry-After when the provider gives one)' })
  @ApiResponse({ status: 504, description: 'LANGUAGE_PROVIDER_TIMEOUT' })
  translate(@Body() body: TranslateTextRequest): Promise<AnswerOf<typeof TranslationSchema>> {
    return this.queries.execute(new TranslateTextQuery(body.text, body.from, body.to));
  }
}
