import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { LANGUAGE_CODES, type LanguageCode } from '../../domain/languages.js';

const Language = Type.Unsafe<LanguageCode>({ type: 'string', enum: LANGUAGE_CODES });

/** POST /v2/language/translate (ADR 39). */
export const TranslationSchema = defineAnswer(
  'Translation',
  Type.Object({ from: Language, to: Language, translation: Type.String(), provider: Type.String({ description: 'Who translated (GhanaNLP Khaya)' }) }),
  { from: 'en', to: 'tw', translation: 'Wo ho te sɛn?', provider: 'ghananlp-khaya' },
);

export { Language };
