import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import TinySDF from '@mapbox/tiny-sdf';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { PbfWriter } from 'pbf';

/**
 * Signed-distance-field glyph ranges for MapLibre labels (docs/adr/0037), in
 * MapLibre's `{fontstack}/{start}-{end}.pbf` format, made on this machine from
 * the Noto Sans TTFs that `@expo-google-fonts/noto-sans` ships (OFL-1.1): the
 * font is registered with @napi-rs/canvas, each glyph is drawn by
 * `@mapbox/tiny-sdf` (MapLibre's own SDF generator) on a @napi-rs/canvas
 * context, at MapLibre's glyph metrics (24 px, 3 px buffer, radius 8), and
 * the range is encoded with `pbf`. Nothing is downloaded.
 */

const require = createRequire(import.meta.url);
const NOTO = path.dirname(require.resolve('@expo-google-fonts/noto-sans/package.json'));

/** The font stacks the console's style names, each one TTF of the npm package. */
export const FONT_STACKS: Readonly<Record<string, { file: string; weight: 'normal' | 'bold'; style: 'normal' | 'italic' }>> = {
  'Noto Sans Regular': { file: path.join(NOTO, '400Regular/NotoSans_400Regular.ttf'), weight: 'normal', style: 'normal' },
  'Noto Sans Bold': { file: path.join(NOTO, '700Bold/NotoSans_700Bold.ttf'), weight: 'bold', style: 'normal' },
  'Noto Sans Italic': { file: path.join(NOTO, '400Regular_Italic/NotoSans_400Regular_Italic.ttf'), weight: 'normal', style: 'italic' },
};

/** MapLibre's glyph metrics: SDFs of 24 px glyphs with a 3 px buffer. */
const FONT_SIZE = 24;
const BUFFER = 3;
const RADIUS = 8;
const CUTOFF = 0.25;
/** MapLibre's baseline offset for 24 px glyphs (its own TinySDF glyphs use the same). */
const ASCENT = 27;

/**
 * Ranges made at all: Basic Latin and Latin-1 (0-255), Latin Extended-A/B
 * (256-511: Ŋ, Ɛ, Ɔ) and IPA Extensions (512-767: ɛ, ɔ of Twi, Ga and Ewe
 * names). Any other range is answered empty: MapLibre draws nothing for those
 * characters instead of failing the label.
 */
export const GLYPH_RANGE_LIMIT = 768;

export function isFontStack(name: string): boolean {
  return Object.hasOwn(FONT_STACKS, name);
}

/** The start of the 256-code-point range of `start-end`, or null when the text is not one. */
export function parseGlyphRange(text: string): number | null {
  const match = /^(\d{1,5})-(\d{1,5})$/.exec(text);
  if (!match) return null;
  const start = Number(match[1]);
  const end = Number(match[2]);
  return start % 256 === 0 && end === start + 255 && end <= 65535 ? start : null;
}

/** The range starts the characters of these texts need, with 0-255 always, within the made ranges. */
export function glyphRangesFor(texts: Iterable<string>): number[] {
  const starts = new Set<number>([0]);
  for (const text of texts) {
    for (const char of text) {
      const start = Math.floor(char.codePointAt(0)! / 256) * 256;
      if (start < GLYPH_RANGE_LIMIT) starts.add(start);
    }
  }
  return [...starts].sort((a, b) => a - b);
}

/** tiny-sdf draws on a browser canvas; here on a @napi-rs/canvas one (Skia). */
class NodeTinySdf extends TinySDF {
  _createCanvas(size: number) {
    return createCanvas(size, size);
  }
}

const registered = new Map<string, string>();

/** The family name the canvas knows the stack's TTF by (registered once per process). */
function family(stack: string): string {
  let name = registered.get(stack);
  if (!name) {
    name = `LocationApi ${stack}`;
    if (!GlobalFonts.registerFromPath(FONT_STACKS[stack].file, name)) throw new Error(`font ${FONT_STACKS[stack].file} could not be registered`);
    registered.set(stack, name);
  }
  return name;
}

/** One glyph range as MapLibre reads it: glyphs { stacks { name, range, glyphs { id, bitmap, width, height, left, top, advance } } }. */
export function glyphRange(stack: string, start: number): Buffer {
  if (!isFontStack(stack)) throw new Error(`unknown font stack ${stack}`);
  const pbf = new PbfWriter();
  const made = start < GLYPH_RANGE_LIMIT;
  const sdf = made
    ? new NodeTinySdf({ fontSize: FONT_SIZE, buffer: BUFFER, radius: RADIUS, cutoff: CUTOFF, fontFamily: `"${family(stack)}"`, fontWeight: FONT_STACKS[stack].weight, fontStyle: FONT_STACKS[stack].style })
    : null;
  pbf.writeMessage(
    1,
    (_: null, stackPbf: PbfWriter) => {
      stackPbf.writeStringField(1, stack);
      stackPbf.writeStringField(2, `${start}-${start + 255}`);
      if (!sdf) return;
      for (let id = start; id <= start + 255; id++) {
        if (id < 32 || (id >= 0x7f && id < 0xa0)) continue; // control characters
        const glyph = sdf.draw(String.fromCodePoint(id));
        // A character the font lacks draws as nothing: left out, so MapLibre skips it instead of spacing a blank.
        if (glyph.glyphAdvance === 0) continue;
        stackPbf.writeMessage(
          3,
          (_g: null, g: PbfWriter) => {
            g.writeVarintField(1, id);
            if (glyph.glyphWidth > 0 && glyph.glyphHeight > 0) g.writeBytesField(2, new Uint8Array(glyph.data.buffer, glyph.data.byteOffset, glyph.data.length));
            g.writeVarintField(3, glyph.glyphWidth);
            g.writeVarintField(4, glyph.glyphHeight);
            g.writeSVarintField(5, glyph.glyphLeft);
            g.writeSVarintField(6, glyph.glyphTop - ASCENT);
            g.writeVarintField(7, Math.round(glyph.glyphAdvance));
          },
          null,
        );
      }
    },
    null,
  );
  return Buffer.from(pbf.finish());
}

export function glyphFile(dir: string, stack: string, start: number): string {
  return path.join(dir, stack, `${start}-${start + 255}.pbf`);
}

/**
 * The ranges of every stack into `dir` (`dir/{stack}/{start}-{end}.pbf`), each
 * written to a temporary file and renamed into place; ranges already there are
 * kept (the glyphs of a font do not change). Returns how many were made.
 */
export async function writeGlyphRanges(dir: string, starts: readonly number[], stacks: readonly string[] = Object.keys(FONT_STACKS)): Promise<number> {
  let made = 0;
  for (const stack of stacks) {
    for (const start of starts) {
      const file = glyphFile(dir, stack, start);
      if (existsSync(file)) continue;
      await writeAtomically(file, glyphRange(stack, start));
      made++;
    }
  }
  return made;
}

/** A range from the cache in `dir`, made and cached when missing (ranges past GLYPH_RANGE_LIMIT are empty, not cached). */
export async function cachedGlyphRange(dir: string, stack: string, start: number): Promise<Buffer> {
  if (start >= GLYPH_RANGE_LIMIT) return glyphRange(stack, start);
  const file = glyphFile(dir, stack, start);
  const cached = await readFile(file).catch(() => null);
  if (cached) return cached;
  const made = glyphRange(stack, start);
  await writeAtomically(file, made).catch(() => undefined); // a read-only DATA_DIR still serves the range
  return made;
}

async function writeAtomically(file: string, data: Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, data);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw error;
  }
}
