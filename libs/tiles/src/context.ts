import type { ContextDefinition } from '../../platform/src/index.js';
import { tilesManifest } from './manifest.js';
import { TilesModule } from './tiles.module.js';

/** Vector and raster map tiles from PMTiles archives (docs/adr/0027). */
export const tilesContext: ContextDefinition = {
  manifest: tilesManifest,
  http: TilesModule,
};
