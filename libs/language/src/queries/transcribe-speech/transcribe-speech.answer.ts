import { Type } from '@sinclair/typebox';
import { defineAnswer } from '../../../../platform/src/index.js';
import { Language } from '../answer-parts.js';

/** POST /v2/language/transcribe (ADR 39). */
export const TranscriptionSchema = defineAnswer(
  'Transcription',
  Type.Object({
    language: Language,
    text: Type.String(),
    provider: Type.String(),
    audio: Type.Object({ media_type: Type.String(), bytes: Type.Integer({ description: 'The size of the recording received; nothing of it is stored' }) }),
  }),
  { language: 'tw', text: 'Me pɛ sɛ me kɔ Kejetia', provider: 'ghananlp-khaya', audio: { media_type: 'audio/mpeg', bytes: 48213 } },
);
