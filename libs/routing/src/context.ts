import type { ContextDefinition } from '../../platform/src/index.js';
import { routingManifest } from './manifest.js';
import { RoutingModule } from './routing.module.js';

/** Routes and isochrones over the imported road network. What the routing context brings to the apps (apps/shared/contexts.ts). */
export const routingContext: ContextDefinition = {
  manifest: routingManifest,
  http: RoutingModule,
};
