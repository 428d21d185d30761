export * from './pack.js';
export { buildStarterPack, contentOf, BUILDER_VERSION, type BuildOptions } from './build/build-pack.js';
export { importStarterData, liveKinds, StarterAbortedError, type StarterImportOptions, type StarterImportReport } from './first-start.js';
export { StarterData, StarterModule } from './starter.module.js';
export { basemapSources, buildBasemap, buildBasemapInWorker, STARTER_BASEMAP, type BasemapBuild, type BasemapProgress } from './basemap/starter-basemap.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { starterContext } from './context.js';
