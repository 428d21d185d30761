import type { ContextManifest } from '../../platform/src/index.js';
import { TranscribeSpeechQuery } from './queries/transcribe-speech/transcribe-speech.handler.js';
import { TranslateTextQuery } from './queries/translate-text/translate-text.handler.js';

/** What the language context brings to a process: query slices only; it stores nothing and appends no event. */
export const languageManifest: ContextManifest = {
  name: 'language',
  events: [],
  queries: [TranslateTextQuery, TranscribeSpeechQuery],
};
