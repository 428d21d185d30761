import { DomainError } from '../../../platform/src/errors.js';

/**
 * interface.md, "Errors": LANGUAGE_QUOTA, 503, the language services are
 * unconfigured on this deployment. The same answer when the provider says its
 * quota is spent or refuses this deployment's key: either way the deployment
 * cannot serve language requests until the operator (or time) fixes it.
 * `retryAfterSeconds` is the provider's own hint, passed on as Retry-After.
 */
export class LanguageQuotaError extends DomainError {
  readonly code = 'LANGUAGE_QUOTA';
  readonly status = 503;
  constructor(
    message: string,
    override readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** Two known languages that make no served pair (two Ghanaian languages, or English to English). */
export class UnsupportedLanguagePairError extends DomainError {
  readonly code = 'UNSUPPORTED_LANGUAGE_PAIR';
  readonly status = 400;
  override readonly field = 'to';
  override readonly details: Readonly<{ pair: string; supported_pairs: readonly string[] }>;
  constructor(from: string, to: string, supported: readonly string[]) {
    super(`${from} to ${to} is not a supported pair: translation is between English and a Ghanaian language, either way`);
    this.details = { pair: `${from}-${to}`, supported_pairs: supported };
  }
}

/** The provider answered, but not with a translation or a transcript (a 5xx, a malformed answer, a refusal we did not expect). */
export class LanguageProviderError extends DomainError {
  readonly code = 'LANGUAGE_PROVIDER_ERROR';
  readonly status = 502;
}

/** The provider did not answer within KHAYA_TIMEOUT_MS, or could not be reached. */
export class LanguageProviderTimeoutError extends DomainError {
  readonly code = 'LANGUAGE_PROVIDER_TIMEOUT';
  readonly status = 504;
}

/** The provider could not make out the audio (it refused the recording itself, not the request). */
export class AudioNotTranscribableError extends DomainError {
  readonly code = 'AUDIO_NOT_TRANSCRIBABLE';
  readonly status = 422;
  override readonly field = 'body';
}

/** An upload that is not one of the accepted audio types, or whose bytes are not the type it declares. */
export class UnsupportedAudioError extends DomainError {
  readonly code = 'UNSUPPORTED_MEDIA_TYPE';
  readonly status = 415;
  override readonly field = 'content-type';
}

export class AudioTooLargeError extends DomainError {
  readonly code = 'PAYLOAD_TOO_LARGE';
  readonly status = 413;
  override readonly field = 'body';
  override readonly details: Readonly<{ max_bytes: number }>;
  constructor(maxBytes: number) {
    super(`the audio is larger than ${maxBytes} bytes`);
    this.details = { max_bytes: maxBytes };
  }
}
