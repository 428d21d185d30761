import type { ContextDefinition } from '../../platform/src/index.js';
import { transitManifest } from './manifest.js';
import { TransitModule } from './transit.module.js';

/** Public-transport journeys over the imported GTFS feeds (docs/adr/0019). What the transit context brings to the apps (apps/shared/contexts.ts). */
export const transitContext: ContextDefinition = {
  manifest: transitManifest,
  http: TransitModule,
};
