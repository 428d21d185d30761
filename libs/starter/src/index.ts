export * from './pack.js';
export { buildStarterPack, contentOf, BUILDER_VERSION, type BuildOptions } from './build/build-pack.js';
