import {
  AudioNotTranscribableError,
  LanguageProviderError,
  LanguageProviderTimeoutError,
  LanguageQuotaError,
} from '../domain/errors.js';
import type { LanguageCode } from '../domain/languages.js';
import type { LanguageProvider } from './language-provider.port.js';

export interface KhayaOptions {
  /** KHAYA_API_URL, checked at start-up (https; no credentials, query or fragment), without a trailing slash. */
  baseUrl: string;
  /** KHAYA_API_KEY. */
  apiKey: string;
  /** KHAYA_TIMEOUT_MS: the whole call, answer body included. */
  timeoutMs: number;
  /** Where a provider failure is reported (never the key, the text or the audio). */
  log?: (entry: Record<string, unknown>) => void;
}

/** Largest provider answer read: a translation of 1,000 characters or a transcript is a few kB. */
const MAX_ANSWER_BYTES = 256 * 1024;
/** A Retry-After beyond a day is not a hint a client can use. */
const MAX_RETRY_AFTER_S = 86_400;

/** Our language codes as Khaya spells them (the same today; kept apart so ours can stay put if theirs move). */
const KHAYA_CODES: Record<LanguageCode, string> = { en: 'en', tw: 'tw', ee: 'ee', gaa: 'gaa', dag: 'dag', fat: 'fat', gur: 'gur' };

/**
 * GhanaNLP's Khaya API behind Azure API Management (docs/adr/0021):
 * - translation: `POST {base}/v1/translate`, JSON `{in, lang: "en-tw"}`, answers the translation as a JSON string;
 * - speech: `POST {base}/asr/v1/transcribe?language=tw`, the audio as the body with its media type, answers the transcript as a JSON string;
 * - the key in `Ocp-Apim-Subscription-Key`; quota spent is APIM's 403 (and 429 for its rate limit), with Retry-After;
 *   a wrong key is 401. Those become 503 LANGUAGE_QUOTA, everything else the provider fails at 502, a time-out 504.
 * Redirects are refused: a redirect would carry the key to wherever it points.
 */
export class KhayaLanguageProvider implements LanguageProvider {
  readonly name = 'ghananlp-khaya';

  constructor(private readonly options: KhayaOptions) {}

  async translate(request: { text: string; from: LanguageCode; to: LanguageCode }): Promise<{ text: string }> {
    const answer = await this.call('translate', '/v1/translate', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ in: request.text, lang: `${KHAYA_CODES[request.from]}-${KHAYA_CODES[request.to]}` }),
    });
    return { text: textOf(answer, ['translation', 'translatedText', 'out'], 'translate') };
  }

  async transcribe(request: { audio: Buffer; mediaType: string; language: LanguageCode }): Promise<{ text: string }> {
    const answer = await this.call('transcribe', `/asr/v1/transcribe?language=${encodeURIComponent(KHAYA_CODES[request.language])}`, {
      headers: { 'content-type': request.mediaType },
      body: request.audio,
    });
    return { text: textOf(answer, ['text', 'transcription', 'transcript'], 'transcribe') };
  }

  private async call(operation: 'translate' | 'transcribe', path: string, init: { headers: Record<string, string>; body: string | Buffer }): Promise<unknown> {
    const signal = AbortSignal.timeout(this.options.timeoutMs);
    let response: Response;
    let text: string;
    try {
      response = await fetch(`${this.options.baseUrl}${path}`, {
        method: 'POST',
        headers: { ...init.headers, accept: 'application/json', 'cache-control': 'no-cache', 'ocp-apim-subscription-key': this.options.apiKey },
        body: init.body,
        redirect: 'error',
        signal,
      });
      text = await readBounded(response);
    } catch (error) {
      if (signal.aborted) {
        this.report(operation, { outcome: 'timeout' });
        throw new LanguageProviderTimeoutError(`the language provider did not answer within ${this.options.timeoutMs} ms`);
      }
      if (error instanceof LanguageProviderError) throw error;
      this.report(operation, { outcome: 'unreachable', reason: describe(error) });
      throw new LanguageProviderError('the language provider could not be reached');
    }
    if (response.ok) {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        this.report(operation, { outcome: 'malformed', status: response.status });
        throw new LanguageProviderError('the language provider answered something that is not JSON');
      }
    }
    const providerMessage = messageOf(text);
    this.report(operation, { outcome: 'refused', status: response.status, provider_message: providerMessage });
    switch (response.status) {
      case 401:
        throw new LanguageQuotaError('the language provider refuses this deployment\'s key: the language services are not usable until the operator fixes KHAYA_API_KEY');
      case 403:
      case 429:
        throw new LanguageQuotaError('the language provider\'s quota for this deployment is used up; try again later', retryAfter(response.headers.get('retry-after')));
      case 400:
      case 415:
      case 422:
        if (operation === 'transcribe') throw new AudioNotTranscribableError('the language provider could not transcribe this audio (format, length or content)');
        throw new LanguageProviderError(`the language provider refused the request (${response.status})`);
      default:
        throw new LanguageProviderError(`the language provider failed (${response.status})`);
    }
  }

  private report(operation: string, entry: Record<string, unknown>): void {
    this.options.log?.({ msg: 'language provider call failed', provider: this.name, operation, ...entry });
  }
}

/** The answer as text, refusing more than MAX_ANSWER_BYTES (a misbehaving provider cannot fill the memory). */
async function readBounded(response: Response): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > MAX_ANSWER_BYTES) {
    await response.body?.cancel();
    throw new LanguageProviderError('the language provider answered more than expected');
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new LanguageProviderError('the language provider answered more than expected');
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Khaya answers a bare JSON string; an object with one of `fields` as a string is taken too. */
function textOf(answer: unknown, fields: string[], operation: string): string {
  if (typeof answer === 'string') return answer;
  if (answer !== null && typeof answer === 'object') {
    for (const field of fields) {
      const value = (answer as Record<string, unknown>)[field];
      if (typeof value === 'string') return value;
    }
  }
  throw new LanguageProviderError(`the language provider's ${operation} answer holds no text`);
}

/** APIM errors are `{statusCode, message}`; only a short, single-line excerpt is logged. */
function messageOf(text: string): string | undefined {
  try {
    const parsed = JSON.parse(text) as { message?: unknown };
    if (typeof parsed?.message === 'string') return parsed.message.slice(0, 200);
  } catch {
    // Not JSON: nothing to report but the status.
  }
  return undefined;
}

/** Retry-After in seconds (delta-seconds or an HTTP date), clamped to 1 s–1 day; undefined when absent or unreadable. */
export function retryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = /^\d+$/.test(header.trim()) ? Number(header.trim()) : Math.ceil((Date.parse(header) - now) / 1000);
  if (!Number.isFinite(seconds)) return undefined;
  return Math.min(MAX_RETRY_AFTER_S, Math.max(1, seconds));
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.name : 'unknown';
}
