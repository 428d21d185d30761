import { Type } from '@sinclair/typebox';
import { LANGUAGE_CODES, type LanguageCode } from '../domain/languages.js';

/** A language of the answers (ADR 39), shared by the translate and transcribe slices. */
export const Language = Type.Unsafe<LanguageCode>({ type: 'string', enum: LANGUAGE_CODES });
