// Basemap tiles: PMTiles archives served by HTTP range.
export * from './tiles.module.js';
export { tilesManifest } from './manifest.js';
export { TileArchives, archiveEtag, type ArchiveSummary } from './archives.js';
export { resolveByteRange, type ByteRange } from './domain/byte-range.js';
export { PMTILES_CONTENT_TYPE } from './queries/get-archive/get-archive.handler.js';
export { writePmtiles, type ArchiveTile, type ArchiveDescription } from './basemap/pmtiles-writer.js';
export { buildVectorArchive, tileOf, type VectorLayer, type VectorArchiveOptions, type VectorArchive } from './basemap/vector-archive.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { tilesContext } from './context.js';
