import type { ContextDefinition } from '../../platform/src/index.js';
import { ConsoleModule } from './console.module.js';

/** The developer console and the API reference (/docs): static pages over the API. It stores no events and declares no command, query, read model or queue. */
export const consoleContext: ContextDefinition = {
  manifest: { name: 'console', events: [] },
  http: ConsoleModule,
};
