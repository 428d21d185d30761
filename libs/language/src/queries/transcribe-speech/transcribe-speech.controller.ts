import { Controller, HttpCode, Inject, Post, Query, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { InvalidParamError, Public } from '../../../../platform/src/index.js';
import { AUDIO_MEDIA_TYPES, mediaTypeOf, sniffAudio } from '../../domain/audio.js';
import { UnsupportedAudioError } from '../../domain/errors.js';
import { checkSpeechLanguage } from '../../domain/languages.js';
import { LANGUAGE_PROVIDER, type LanguageProvider } from '../../provider/language-provider.port.js';
import { TranscribeSpeechQuery } from './transcribe-speech.request.js';

const MEDIA_TYPES = Object.keys(AUDIO_MEDIA_TYPES);

/** interface.md, "Routing, transit, weather, language": POST /v2/language/transcribe, Ghanaian-language speech to text. */
@ApiTags('language')
@Controller('v2/language')
export class TranscribeSpeechController {
  constructor(@Inject(LANGUAGE_PROVIDER) private readonly provider: LanguageProvider) {}

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
  @ApiResponse({ status: 200, description: '`{language, text, provider, audio: {media_type, bytes}}`' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`language`; `body` when empty)' })
  @ApiResponse({ status: 413, description: 'PAYLOAD_TOO_LARGE (details `{max_bytes}`)' })
  @ApiResponse({ status: 415, description: 'UNSUPPORTED_MEDIA_TYPE: not one of the accepted audio types, or the bytes are not what Content-Type says' })
  @ApiResponse({ status: 422, description: 'AUDIO_NOT_TRANSCRIBABLE: the provider could not make out the recording' })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: the per-IP throttle' })
  @ApiResponse({ status: 502, description: 'LANGUAGE_PROVIDER_ERROR' })
  @ApiResponse({ status: 503, description: 'LANGUAGE_QUOTA: not configured here, or the provider quota is used up' })
  @ApiResponse({ status: 504, description: 'LANGUAGE_PROVIDER_TIMEOUT' })
  async transcribe(@Req() request: FastifyRequest, @Query() query: TranscribeSpeechQuery) {
    const language = checkSpeechLanguage(query.language);
    const mediaType = mediaTypeOf(request.headers['content-type']);
    const declared = AUDIO_MEDIA_TYPES[mediaType];
    if (!declared) throw new UnsupportedAudioError(`send the recording as one of ${MEDIA_TYPES.join(', ')}`);
    const audio = request.body;
    if (!Buffer.isBuffer(audio) || audio.length === 0) throw new InvalidParamError('send the recording as the request body', 'body');
    const sniffed = sniffAudio(audio);
    if (sniffed !== declared) throw new UnsupportedAudioError(`the body does not look like ${mediaType}${sniffed ? ` (it looks like ${sniffed})` : ''}`);
    const { text } = await this.provider.transcribe({ audio, mediaType, language });
    return { language, text, provider: this.provider.name, audio: { media_type: mediaType, bytes: audio.length } };
  }
}
