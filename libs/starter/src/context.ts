import type { ContextDefinition } from '../../platform/src/index.js';
import { StarterModule } from './starter.module.js';

/** The starter pack: /health stays 503 until its datasets are live (STARTER_DATA; docs/adr/0017). It stores no events and declares no command, query, read model or queue. */
export const starterContext: ContextDefinition = {
  manifest: { name: 'starter', events: [] },
  http: StarterModule,
};
