export {
  STARTER_KINDS,
  ROLE_KINDS,
  DEFAULT_PACK,
  DEFAULT_SOURCES,
  StarterPackError,
  appRoot,
  readManifest,
  verifyPack,
  parseRecipe,
  type StarterKind,
  type SourceRole,
  type RecipeSource,
  type Recipe,
  type PackFile,
  type PackDataset,
  type PackManifest,
} from './public/pack.js';
export { buildStarterPack, BUILDER_VERSION, type BuildOptions } from './public/build-pack.js';
export { StarterModule } from './starter.module.js';
export { basemapSources, buildBasemap, STARTER_BASEMAP, type BasemapBuild, type BasemapProgress } from './public/starter-basemap.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { starterContext } from './context.js';
