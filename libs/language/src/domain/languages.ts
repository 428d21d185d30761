import { InvalidParamError } from '../../../platform/src/errors.js';
import { UnsupportedLanguagePairError } from './errors.js';

/**
 * The languages of POST /v2/language/translate and /transcribe (interface.md:
 * English to and from Twi, Ewe, Ga, Dagbani, Fante and Frafra). The codes are
 * ISO 639 codes — 639-1 where the language has one (en, tw, ee), 639-3
 * otherwise (gaa, dag, fat, gur) — which are also the codes GhanaNLP uses.
 */
export const LANGUAGES = {
  en: 'English',
  tw: 'Twi (Akan)',
  ee: 'Ewe',
  gaa: 'Ga',
  dag: 'Dagbani',
  fat: 'Fante (Akan)',
  gur: 'Frafra (Gurene)',
} as const;
export type LanguageCode = keyof typeof LANGUAGES;
export const LANGUAGE_CODES = Object.keys(LANGUAGES) as LanguageCode[];
export const GHANAIAN_LANGUAGES: readonly LanguageCode[] = ['tw', 'ee', 'gaa', 'dag', 'fat', 'gur'];

/** Longest text translated in one request (the provider's own limit is 1,000 characters). */
export const MAX_TRANSLATE_CHARACTERS = 1000;

/** Every pair served: English to each Ghanaian language and back, nothing between two Ghanaian languages. */
export const LANGUAGE_PAIRS: readonly string[] = GHANAIAN_LANGUAGES.flatMap((code) => [`en-${code}`, `${code}-en`]);

export function isLanguageCode(value: string): value is LanguageCode {
  return Object.hasOwn(LANGUAGES, value);
}

/**
 * The pair a request asks for, or a 400 naming the field at fault: an unknown
 * code names its own field; two known codes that make no served pair name
 * `to` (the target is what cannot be reached from this source).
 */
export function checkPair(from: string, to: string): { from: LanguageCode; to: LanguageCode } {
  if (!isLanguageCode(from)) throw new InvalidParamError(`from must be one of ${LANGUAGE_CODES.join(', ')}`, 'from');
  if (!isLanguageCode(to)) throw new InvalidParamError(`to must be one of ${LANGUAGE_CODES.join(', ')}`, 'to');
  if (!LANGUAGE_PAIRS.includes(`${from}-${to}`)) throw new UnsupportedLanguagePairError(from, to, LANGUAGE_PAIRS);
  return { from, to };
}

/** The language of speech to transcribe: a Ghanaian language (English speech is not what this endpoint is for). */
export function checkSpeechLanguage(language: string): LanguageCode {
  if (!isLanguageCode(language) || !GHANAIAN_LANGUAGES.includes(language)) {
    throw new InvalidParamError(`language must be one of ${GHANAIAN_LANGUAGES.join(', ')}`, 'language');
  }
  return language;
}
