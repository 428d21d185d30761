export * from './public/pack.js';
export { buildStarterPack, contentOf, BUILDER_VERSION, type BuildOptions } from './public/build-pack.js';
export { StarterData, StarterModule } from './starter.module.js';
export { basemapSources, buildBasemap, buildBasemapInWorker, STARTER_BASEMAP, type BasemapBuild, type BasemapProgress } from './public/starter-basemap.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { starterContext } from './context.js';
