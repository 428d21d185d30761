import type { ContextManifest } from '../../platform/src/index.js';

/** What the language context brings to a process: controllers only; it stores nothing and appends no event. */
export const languageManifest: ContextManifest = {
  name: 'language',
  events: [],
};
