import type { ContextDefinition } from '../../platform/src/index.js';
import { languageManifest } from './manifest.js';
import { LanguageModule } from './language.module.js';

/** Local-language names and spoken directions. What the language context brings to the apps (apps/shared/contexts.ts). */
export const languageContext: ContextDefinition = {
  manifest: languageManifest,
  http: LanguageModule,
};
