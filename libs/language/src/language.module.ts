import { Inject, Module, Optional, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import { CONFIG, JsonLogger, type Config } from '../../platform/src/index.js';
import { registerAudioBodyParser } from './audio-body.js';
import { KhayaLanguageProvider } from './provider/khaya-provider.js';
import { LANGUAGE_PROVIDER, type LanguageProvider } from './provider/language-provider.port.js';
import { UnconfiguredLanguageProvider } from './provider/unconfigured-provider.js';
import { TranscribeSpeechController } from './queries/transcribe-speech/transcribe-speech.controller.js';
import { TranscribeSpeechHandler } from './queries/transcribe-speech/transcribe-speech.handler.js';
import { TranslateTextController } from './queries/translate-text/translate-text.controller.js';
import { TranslateTextHandler } from './queries/translate-text/translate-text.handler.js';

/** The provider the configuration names: Khaya with a key, else the one that answers 503 LANGUAGE_QUOTA. */
export function languageProvider(config: Config, logger?: JsonLogger): LanguageProvider {
  const { khayaApiKey, khayaApiUrl, providerTimeoutMs } = config.language;
  if (!khayaApiKey) return new UnconfiguredLanguageProvider();
  return new KhayaLanguageProvider({ baseUrl: khayaApiUrl, apiKey: khayaApiKey, timeoutMs: providerTimeoutMs, log: (entry) => logger?.warn(entry) });
}

/**
 * Ghanaian-language services (interface.md, "Routing, transit, weather,
 * language"; docs/adr/0021): translation and transcription through a
 * provider port. Stateless: no events, nothing stored. The audio body parser
 * goes onto the HTTP server before it listens.
 */
@Module({
  controllers: [TranslateTextController, TranscribeSpeechController],
  providers: [
    { provide: LANGUAGE_PROVIDER, inject: [CONFIG, JsonLogger], useFactory: (config: Config, logger: JsonLogger) => languageProvider(config, logger) },
    TranslateTextHandler,
    TranscribeSpeechHandler,
  ],
})
export class LanguageModule implements OnModuleInit {
  constructor(
    @Inject(CONFIG) private readonly config: Config,
    @Optional() private readonly http?: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    const fastify = this.http?.httpAdapter?.getInstance() as FastifyInstance | undefined;
    if (fastify) registerAudioBodyParser(fastify, this.config.language.audioMaxBytes);
  }
}
