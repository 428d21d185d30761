import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PbfReader } from 'pbf';
import { cachedGlyphRange, FONT_STACKS, glyphRange, glyphRangesFor, parseGlyphRange, writeGlyphRanges } from './glyphs.js';

interface Glyph {
  id: number;
  bitmap?: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

/** MapLibre's reading of a glyph range (its glyphs.proto). */
function decode(data: Uint8Array): { name: string; range: string; glyphs: Map<number, Glyph> } {
  const out = { name: '', range: '', glyphs: new Map<number, Glyph>() };
  new PbfReader(data).readFields((tag, _r, pbf) => {
    if (tag !== 1) return;
    pbf.readMessage((stackTag, _s, p) => {
      if (stackTag === 1) out.name = p.readString();
      else if (stackTag === 2) out.range = p.readString();
      else if (stackTag === 3) {
        const glyph = p.readMessage<Glyph>((t, g, q) => {
          if (t === 1) g.id = q.readVarint();
          else if (t === 2) g.bitmap = q.readBytes();
          else if (t === 3) g.width = q.readVarint();
          else if (t === 4) g.height = q.readVarint();
          else if (t === 5) g.left = q.readSVarint();
          else if (t === 6) g.top = q.readSVarint();
          else if (t === 7) g.advance = q.readVarint();
        }, { id: 0, width: 0, height: 0, left: 0, top: 0, advance: 0 });
        out.glyphs.set(glyph.id, glyph);
      }
    }, null);
  }, null);
  return out;
}

describe('SDF glyph ranges from the Noto Sans TTFs', () => {
  it('draws Basic Latin and Latin-1 as MapLibre reads them: 24 px SDFs with a 3 px buffer', () => {
    const started = Date.now();
    const range = decode(glyphRange('Noto Sans Regular', 0));
    process.stderr.write(`glyph range 0-255 (Noto Sans Regular): ${range.glyphs.size} glyphs, ${Date.now() - started} ms\n`);
    expect(range.name).toBe('Noto Sans Regular');
    expect(range.range).toBe('0-255');
    const a = range.glyphs.get('A'.charCodeAt(0))!;
    expect(a.bitmap!.length).toBe((a.width + 6) * (a.height + 6));
    expect(a.height).toBeGreaterThan(12);
    expect(range.glyphs.get('W'.charCodeAt(0))!.advance).toBeGreaterThan(range.glyphs.get('i'.charCodeAt(0))!.advance);
    // A signed distance field: inside the stroke bright, far outside dark, edges in between.
    expect(Math.max(...a.bitmap!)).toBeGreaterThan(190);
    expect(Math.min(...a.bitmap!)).toBeLessThan(10);
    expect(a.bitmap!.some((v) => v > 60 && v < 190)).toBe(true);
    const space = range.glyphs.get(32)!;
    expect(space.bitmap).toBeUndefined();
    expect(space.advance).toBeGreaterThan(3);
    expect(range.glyphs.has(10)).toBe(false);
    expect(range.glyphs.has(0xe9)).toBe(true); // é
  });

  it("has the Ghanaian letters (ɛ, ɔ, Ŋ) and draws Bold wider than Regular", () => {
    expect(decode(glyphRange('Noto Sans Regular', 512)).glyphs.get(0x025b)?.bitmap).toBeDefined();
    expect(decode(glyphRange('Noto Sans Italic', 512)).glyphs.get(0x0254)?.bitmap).toBeDefined();
    expect(decode(glyphRange('Noto Sans Bold', 256)).glyphs.get(0x014a)?.bitmap).toBeDefined();
    const m = 'm'.charCodeAt(0);
    expect(decode(glyphRange('Noto Sans Bold', 0)).glyphs.get(m)!.width).toBeGreaterThan(decode(glyphRange('Noto Sans Regular', 0)).glyphs.get(m)!.width);
  });

  it('answers ranges past the Latin ones empty, and refuses unknown stacks', () => {
    const empty = decode(glyphRange('Noto Sans Regular', 0x4e00));
    expect(empty.range).toBe('19968-20223');
    expect(empty.glyphs.size).toBe(0);
    expect(() => glyphRange('Arial Unicode MS', 0)).toThrow(/unknown font stack/);
  });

  it('parses only whole 256-code-point ranges', () => {
    expect(parseGlyphRange('0-255')).toBe(0);
    expect(parseGlyphRange('65280-65535')).toBe(65280);
    expect(parseGlyphRange('1-256')).toBeNull();
    expect(parseGlyphRange('0-511')).toBeNull();
    expect(parseGlyphRange('65536-65791')).toBeNull();
    expect(parseGlyphRange('../0-255')).toBeNull();
  });

  it('needs the ranges of the label texts, within the made ones', () => {
    expect(glyphRangesFor(['Accra', 'Kumasi'])).toEqual([0]);
    expect(glyphRangesFor(['Ɔdɔ', 'Ŋmɛ', '北京'])).toEqual([0, 256, 512]);
  });

  it('writes the ranges once into the cache folder and serves them from it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'glyphs-'));
    expect(await writeGlyphRanges(dir, [0], ['Noto Sans Bold'])).toBe(1);
    expect(await writeGlyphRanges(dir, [0], ['Noto Sans Bold'])).toBe(0);
    expect(readdirSync(path.join(dir, 'Noto Sans Bold'))).toEqual(['0-255.pbf']);
    expect(decode(await cachedGlyphRange(dir, 'Noto Sans Italic', 0)).name).toBe('Noto Sans Italic');
    expect(readdirSync(dir).sort()).toEqual(['Noto Sans Bold', 'Noto Sans Italic']);
    expect(Object.keys(FONT_STACKS)).toHaveLength(3);
  });
});
