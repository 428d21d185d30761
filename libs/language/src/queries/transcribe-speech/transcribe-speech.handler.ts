import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import { InvalidParamError, type AnswerOf } from '../../../../platform/src/index.js';
import { AUDIO_MEDIA_TYPES, mediaTypeOf, sniffAudio } from '../../domain/audio.js';
import { UnsupportedAudioError } from '../../domain/errors.js';
import { checkSpeechLanguage } from '../../domain/languages.js';
import { LANGUAGE_PROVIDER, type LanguageProvider } from '../../provider/language-provider.port.js';
import type { TranscriptionSchema } from './transcribe-speech.answer.js';

export const MEDIA_TYPES = Object.keys(AUDIO_MEDIA_TYPES);

export type Transcription = AnswerOf<typeof TranscriptionSchema>;

/** POST /v2/language/transcribe?language=: the recording as the body, its media type as the request declared it. */
export class TranscribeSpeechQuery extends Query<Transcription> {
  constructor(
    readonly language: string,
    readonly contentType: string | undefined,
    readonly audio: unknown,
  ) {
    super();
  }
}

/** Checks the language, the declared type and the bytes against each other (in that order), then asks the provider; nothing of the audio is kept. */
@QueryHandler(TranscribeSpeechQuery)
export class TranscribeSpeechHandler implements IQueryHandler<TranscribeSpeechQuery> {
  constructor(@Inject(LANGUAGE_PROVIDER) private readonly provider: LanguageProvider) {}

  async execute(query: TranscribeSpeechQuery): Promise<Transcription> {
    const language = checkSpeechLanguage(query.language);
    const mediaType = mediaTypeOf(query.contentType);
    const declared = AUDIO_MEDIA_TYPES[mediaType];
    if (!declared) throw new UnsupportedAudioError(`send the recording as one of ${MEDIA_TYPES.join(', ')}`);
    const audio = query.audio;
    if (!Buffer.isBuffer(audio) || audio.length === 0) throw new InvalidParamError('send the recording as the request body', 'body');
    const sniffed = sniffAudio(audio);
    if (sniffed !== declared) throw new UnsupportedAudioError(`the body does not look like ${mediaType}${sniffed ? ` (it looks like ${sniffed})` : ''}`);
    const { text } = await this.provider.transcribe({ audio, mediaType, language });
    return { language, text, provider: this.provider.name, audio: { media_type: mediaType, bytes: audio.length } };
  }
}
