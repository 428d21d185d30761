// The language context's public API: what the apps and the tests use.
export * from './domain/languages.js';
export * from './domain/errors.js';
export { AUDIO_MEDIA_TYPES, sniffAudio, mediaTypeOf, type AudioFormat } from './domain/audio.js';
export * from './provider/language-provider.port.js';
export { LanguageModule } from './language.module.js';
export * from './manifest.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { languageContext } from './context.js';
