import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Controller, Get, Inject, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CONFIG, Public, RawResponse, type Config } from '../../platform/src/index.js';
import { cachedGlyphRange, isFontStack, parseGlyphRange } from '../../tiles/src/index.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
// tsc does not copy the page's files to dist/: a compiled build reads them from the sources.
const ASSETS = [path.join(HERE, 'assets'), path.resolve(HERE, '../../../../libs/console/src/assets')].find((dir) => existsSync(dir)) ?? path.join(HERE, 'assets');
const require = createRequire(import.meta.url);
const MAPLIBRE_DIST = path.dirname(require.resolve('maplibre-gl/dist/maplibre-gl.css'));
const H3_DIST = path.join(path.dirname(require.resolve('h3-js/package.json')), 'dist');
const PMTILES_DIST = path.join(path.dirname(require.resolve('pmtiles/package.json')), 'dist');

/** Every file the page may load, by its URL name: the page's own and the two libraries, from node_modules (no CDN). */
const FILES: Record<string, { file: string; type: string }> = {
  'console.js': { file: path.join(ASSETS, 'console.js'), type: 'text/javascript; charset=utf-8' },
  'console.css': { file: path.join(ASSETS, 'console.css'), type: 'text/css; charset=utf-8' },
  'maplibre-gl.mjs': { file: path.join(MAPLIBRE_DIST, 'maplibre-gl.mjs'), type: 'text/javascript; charset=utf-8' },
  'maplibre-gl-worker.mjs': { file: path.join(MAPLIBRE_DIST, 'maplibre-gl-worker.mjs'), type: 'text/javascript; charset=utf-8' },
  'maplibre-gl.css': { file: path.join(MAPLIBRE_DIST, 'maplibre-gl.css'), type: 'text/css; charset=utf-8' },
  'h3-js.umd.js': { file: path.join(H3_DIST, 'h3-js.umd.js'), type: 'text/javascript; charset=utf-8' },
  'pmtiles.js': { file: path.join(PMTILES_DIST, 'pmtiles.js'), type: 'text/javascript; charset=utf-8' },
};

/** Only this origin; MapLibre runs its workers from blob: URLs and draws from blob:/data: images. */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The developer console (issue 19): a static page and its scripts, outside
 * /v2 and without a key. The page holds no secrets; it asks for a key (or
 * signs up for one) and calls the public API with it like any integrator.
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleController {
  private readonly cache = new Map<string, Buffer>();
  /** Glyph ranges by `stack/start`: at most 3 stacks × 256 ranges, each a few kB to ~100 kB; a range asked for twice at once is made once. */
  private readonly glyphs = new Map<string, Promise<Buffer>>();
  private readonly glyphsDir: string;

  constructor(@Inject(CONFIG) config: Config) {
    // Where the first start drew the basemap's glyph ranges (docs/adr/0037).
    this.glyphsDir = path.join(config.dataDir, 'glyphs');
  }

  @Get()
  @Public()
  @RawResponse()
  async page(@Res() reply: FastifyReply): Promise<void> {
    await this.send(reply, path.join(ASSETS, 'console.html'), 'text/html; charset=utf-8');
  }

  @Get('assets/:file')
  @Public()
  @RawResponse()
  async asset(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const entry = Object.hasOwn(FILES, file) ? FILES[file] : undefined;
    if (!entry) throw new NotFoundException(`no console asset ${file}`);
    await this.send(reply, entry.file, entry.type);
  }

  /**
   * The label glyphs of the map style (`glyphs: /console/glyphs/{fontstack}/{range}.pbf`):
   * SDF ranges of the Noto Sans stacks, from DATA_DIR/glyphs where the first
   * start drew them, else drawn now and kept there; ranges past the Latin ones
   * answer empty (docs/adr/0037).
   */
  @Get('glyphs/:fontstack/:range')
  @Public()
  @RawResponse()
  async glyphRange(@Param('fontstack') fontstack: string, @Param('range') range: string, @Res() reply: FastifyReply): Promise<void> {
    const start = range.endsWith('.pbf') ? parseGlyphRange(range.slice(0, -'.pbf'.length)) : null;
    if (!isFontStack(fontstack) || start === null) throw new NotFoundException(`no glyph range ${fontstack}/${range}`);
    const key = `${fontstack}/${start}`;
    let body = this.glyphs.get(key);
    if (!body) {
      body = cachedGlyphRange(this.glyphsDir, fontstack, start);
      this.glyphs.set(key, body);
      body.catch(() => this.glyphs.delete(key));
    }
    await reply
      .headers({
        'content-type': 'application/x-protobuf',
        'content-security-policy': CONSOLE_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        // A font's glyphs do not change.
        'cache-control': 'public, max-age=86400',
      })
      .send(await body);
  }

  private async send(reply: FastifyReply, file: string, type: string): Promise<void> {
    let body = this.cache.get(file);
    if (!body) {
      body = await readFile(file);
      this.cache.set(file, body);
    }
    await reply
      .headers({
        'content-type': type,
        'content-security-policy': CONSOLE_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-cache',
      })
      .send(body);
  }
}
