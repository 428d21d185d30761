import { Controller, HttpCode, Post, Query, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { Public } from '../../../../platform/src/index.js';
import { MEDIA_TYPES, TranscribeSpeechQuery } from './transcribe-speech.handler.js';
import { TranscribeSpeechRequest } from './transcribe-speech.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { TranscriptionSchema } from './transcribe-speech.answer.js';

/** interface.md, "Routing, transit, weather, language": POST /v2/language/transcribe, Ghanaian-language speech to text. */
@ApiTags('language')
@Controller('v2/language')
export class TranscribeSpeechController {
  constructor(private readonly queries: QueryBus) {}

  @Post('transcribe')
  @HttpCode(200)
  @Public()
  @ApiOperation({
    summary: 'Transcribe Ghanaian-language speech',
    description:
      'Send the recording itself as the request body (not JSON, not multipart) with its media type in Content-Type, and the spoken language in `?language=`. ' +
      `Accepted: ${MEDIA_TYPES.join(', ')}; MP3 and WAV are what the provider documents, the others are passed on as they are. ` +
      'The first bytes must match the declared type. Size: at most LANGUAGE_AUDIO_MAX_BYTES (4 MiB by default, about 4 minutes of 128 kbit/s MP3 or 2 minutes of 16 kHz mono WAV), ' +
      'which must arrive within REQUEST_TIMEOUT_MS. Public, throttled per client IP (THROTTLE_LANGUAGE_PER_MINUTE). Nothing of the audio is stored.',
  })
  @ApiConsumes(...MEDIA_TYPES)
  @ApiBody({ description: 'The recording', schema: { type: 'string', format: 'binary' } })
  @ApiAnswer(TranscriptionSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`language`; `body` when empty)' })
  @ApiResponse({ status: 413, description: 'PAYLOAD_TOO_LARGE (details `{max_bytes}`)' })
  @ApiResponse({ status: 415, description: 'UNSUPPORTED_MEDIA_TYPE: not one of the accepted audio types, or the bytes are not what Content-Type says' })
  @ApiResponse({ status: 422, description: 'AUDIO_NOT_TRANSCRIBABLE: the provider could not make out the recording' })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: the per-IP throttle' })
  @ApiResponse({ status: 502, description: 'LANGUAGE_PROVIDER_ERROR' })
  @ApiResponse({ status: 503, description: 'LANGUAGE_QUOTA: not configured here, or the provider quota is used up' })
  @ApiResponse({ status: 504, description: 'LANGUAGE_PROVIDER_TIMEOUT' })
  transcribe(@Req() request: FastifyRequest, @Query() query: TranscribeSpeechRequest): Promise<AnswerOf<typeof TranscriptionSchema>> {
    return this.queries.execute(new TranscribeSpeechQuery(query.language, request.headers['content-type'], request.body));
  }
}
