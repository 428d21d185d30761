import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { Language } from '../answer-parts.js';

/** POST /v2/language/translate (ADR 39). */
export const TranslationSchema = defineAnswer(
  'Translation',
  Type.Object({ from: Language, to: Language, translation: Type.String(), provider: Type.String({ description: 'Who translated (GhanaNLP Khaya)' }) }),
  { from: 'en', to: 'tw', translation: 'Wo ho te sɛn?', provider: 'ghananlp-khaya' },
);
