/**
 * The label glyphs of a map style (`glyphs: …/{fontstack}/{range}.pbf`), as another context serves them (the
 * console's page; issue 52, docs/adr/0066): SDF ranges of the Noto Sans stacks, read from DATA_DIR/glyphs where
 * the first start drew them, else drawn now and kept there; ranges past the Latin ones are empty (docs/adr/0037).
 * Injected by GLYPH_RANGES from GlyphRangesModule.
 */
export interface GlyphRanges {
  /** The range `{start}-{end}` of a font stack as a glyph PBF, or null when the stack or the range is not one (the caller's 404). */
  range(fontstack: string, range: string): Promise<Buffer> | null;
}

export const GLYPH_RANGES = Symbol('GlyphRanges');
