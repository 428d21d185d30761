import { placesCli } from './cli.js';
import type { ContextDefinition } from '../../platform/src/index.js';
import { placesManifest } from './manifest.js';
import { PlacesModule } from './places.module.js';

/** Reference places, search and landmark reports (docs/adr/0011). What the places context brings to the apps (apps/shared/contexts.ts). */
export const placesContext: ContextDefinition = {
  manifest: placesManifest,
  http: PlacesModule,
  cli: placesCli,
};
