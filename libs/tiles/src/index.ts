// Basemap tiles: PMTiles archives served by HTTP range.
export * from './tiles.module.js';
export { tilesManifest } from './manifest.js';
export { resolveByteRange, type ByteRange } from './domain/byte-range.js';
export { FONT_STACKS, glyphRangesFor, GLYPH_RANGE_LIMIT, writeGlyphRanges } from './public/glyphs.js';
export { GLYPH_RANGES, type GlyphRanges } from './glyph-ranges.port.js';
export { GlyphRangesModule } from './glyph-ranges.module.js';
export { buildVectorArchive, tileOf, type VectorLayer, type VectorArchiveOptions, type VectorArchive } from './public/vector-archive.js';
// What this context brings to the apps (apps/shared/contexts.ts).
export { tilesContext } from './context.js';
