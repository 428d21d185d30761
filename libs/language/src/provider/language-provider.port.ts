import type { LanguageCode } from '../domain/languages.js';

/**
 * The language provider port (docs/adr/0021): translation between English
 * and a Ghanaian language, and transcription of Ghanaian speech. Adapters:
 * GhanaNLP's Khaya API, and the unconfigured one that answers every call
 * with 503 LANGUAGE_QUOTA. Failures are the domain's errors
 * (LanguageQuotaError, LanguageProviderError, LanguageProviderTimeoutError,
 * AudioNotTranscribableError), never a transport's.
 */
export interface LanguageProvider {
  /** Named in answers (`provider`), so a client knows whose model spoke. */
  readonly name: string;
  translate(request: { text: string; from: LanguageCode; to: LanguageCode }): Promise<{ text: string }>;
  transcribe(request: { audio: Buffer; mediaType: string; language: LanguageCode }): Promise<{ text: string }>;
}

export const LANGUAGE_PROVIDER = Symbol('LanguageProvider');
