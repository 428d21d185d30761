export * from './pack.js';
export { buildStarterPack, contentOf, BUILDER_VERSION, type BuildOptions } from './build/build-pack.js';
export { importStarterData, liveKinds, StarterAbortedError, type StarterImportOptions, type StarterImportReport } from './first-start.js';
export { StarterData, StarterModule } from './starter.module.js';
