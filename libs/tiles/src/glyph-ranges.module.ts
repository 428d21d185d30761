import path from 'node:path';
import { Module } from '@nestjs/common';
import { CONFIG, type Config } from '../../platform/src/index.js';
import { GLYPH_RANGES, type GlyphRanges } from './glyph-ranges.port.js';
import { cachedGlyphRange, isFontStack, parseGlyphRange } from './public/glyphs.js';

/** Glyph ranges by `stack/start`: at most 3 stacks × 256 ranges, each a few kB to ~100 kB; a range asked for twice at once is made once. */
class KeptGlyphRanges implements GlyphRanges {
  private readonly made = new Map<string, Promise<Buffer>>();

  constructor(private readonly dir: string) {}

  range(fontstack: string, range: string): Promise<Buffer> | null {
    const start = parseGlyphRange(range);
    if (!isFontStack(fontstack) || start === null) return null;
    const key = `${fontstack}/${start}`;
    let body = this.made.get(key);
    if (!body) {
      body = cachedGlyphRange(this.dir, fontstack, start);
      this.made.set(key, body);
      body.catch(() => this.made.delete(key));
    }
    return body;
  }
}

/** Provides and exports GLYPH_RANGES (no controller, so importing it serves nothing of the tiles context). */
@Module({
  providers: [{ provide: GLYPH_RANGES, inject: [CONFIG], useFactory: (config: Config) => new KeptGlyphRanges(path.join(config.dataDir, 'glyphs')) }],
  exports: [GLYPH_RANGES],
})
export class GlyphRangesModule {}
