import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { Controller, Get, Inject, NotFoundException, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { CONFIG, DomainError, Public, RawResponse, type Config } from '../../platform/src/index.js';
import { GLYPH_RANGES, resolveByteRange, type GlyphRanges } from '../../tiles/src/index.js';
import { ASSETS, CSS, JS, MAP_LIBRARIES, PageFiles, type PageFile } from './page-files.js';

/** Every file the page may load, by its URL name: the page's own and the map's libraries, from node_modules (no CDN). */
const FILES: Record<string, PageFile> = {
  'console.js': { file: path.join(ASSETS, 'console.js'), type: JS },
  'console.css': { file: path.join(ASSETS, 'console.css'), type: CSS },
  ...MAP_LIBRARIES,
};

/**
 * The archive the console draws without a key: the starter basemap the first
 * start builds in TILES_DIR from open data (docs/adr/0027, 0061). Other
 * archives stay behind a key at GET /v2/tiles/{name}, as interface.md has it.
 */
export const CONSOLE_BASEMAP = 'starter';
/** The largest byte range the console's basemap answers: a PMTiles client reads the 16 KiB header, directories and single tiles, never the whole archive. */
export const CONSOLE_BASEMAP_MAX_RANGE = 1024 * 1024;

class BasemapRangeError extends DomainError {
  readonly code = 'RANGE_NOT_SATISFIABLE';
  readonly status = 416;
}

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
 * /v2 and without a key. It opens on the starter basemap, which it serves
 * without a key (issue 50), at the view `#zoom/lat/lng` names. The page holds
 * no secrets; it asks for a key (or signs up for one) when a call needs it,
 * and calls the public API with it like any integrator.
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleController {
  private readonly files = new PageFiles(CONSOLE_CSP);
  private readonly basemapFile: string;
  private readonly tilesMaxAgeS: number;

  constructor(
    @Inject(CONFIG) config: Config,
    @Inject(GLYPH_RANGES) private readonly glyphs: GlyphRanges,
  ) {
    this.basemapFile = path.join(config.tilesDir, `${CONSOLE_BASEMAP}.pmtiles`);
    this.tilesMaxAgeS = config.tilesMaxAgeS;
  }

  @Get()
  @Public()
  @RawResponse()
  async page(@Res() reply: FastifyReply): Promise<void> {
    await this.files.send(reply, path.join(ASSETS, 'console.html'), 'text/html; charset=utf-8');
  }

  @Get('assets/:file')
  @Public()
  @RawResponse()
  async asset(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const entry = Object.hasOwn(FILES, file) ? FILES[file] : undefined;
    if (!entry) throw new NotFoundException(`no console asset ${file}`);
    await this.files.send(reply, entry.file, entry.type);
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
    // Drawn and kept by the tiles context (GLYPH_RANGES; docs/adr/0037, 0066).
    const body = range.endsWith('.pbf') ? this.glyphs.range(fontstack, range.slice(0, -'.pbf'.length)) : null;
    if (body === null) throw new NotFoundException(`no glyph range ${fontstack}/${range}`);
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

  /**
   * The starter basemap, without a key, so the console opens on a map (issue
   * 50; docs/adr/0061): the PMTiles archive by single byte ranges of at most
   * CONSOLE_BASEMAP_MAX_RANGE (206), with a strong ETag the client compares
   * between reads (a rebuilt archive is noticed) and If-None-Match (304). A
   * request for the whole archive, or for more at once, answers 416 naming the
   * keyed GET /v2/tiles/starter. 404 when this server has no starter basemap.
   */
  @Get('basemap.pmtiles')
  @Public()
  @RawResponse()
  async basemap(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    let handle: FileHandle;
    try {
      handle = await open(this.basemapFile, 'r');
    } catch {
      throw new NotFoundException('this server has no starter basemap (built at first start with STARTER_DATA); GET /v2/tiles lists the archives a key can read');
    }
    let streaming = false;
    try {
      const stats = await handle.stat({ bigint: true });
      if (!stats.isFile()) throw new NotFoundException('this server has no starter basemap');
      const size = Number(stats.size);
      const etag = `"${stats.size.toString(16)}-${stats.mtimeNs.toString(16)}"`;
      void reply.headers({
        'accept-ranges': 'bytes',
        etag,
        'cache-control': `public, max-age=${this.tilesMaxAgeS}`,
        'content-security-policy': CONSOLE_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
      });
      const match = request.headers['if-none-match'];
      if (typeof match === 'string' && match.split(',').some((tag) => tag.trim() === etag)) {
        await reply.status(304).send();
        return;
      }
      const header = request.headers.range;
      const range = resolveByteRange(Array.isArray(header) ? header[0] : header, size);
      if (range.kind !== 'partial' || range.end - range.start + 1 > CONSOLE_BASEMAP_MAX_RANGE) {
        void reply.header('content-range', `bytes */${size}`);
        throw new BasemapRangeError(
          `the console's basemap is read by single byte ranges of at most ${CONSOLE_BASEMAP_MAX_RANGE} bytes (the archive has ${size}); the whole archive is GET /v2/tiles/${CONSOLE_BASEMAP} with a key`,
        );
      }
      const stream = handle.createReadStream({ start: range.start, end: range.end, autoClose: true });
      reply.raw.once('close', () => stream.destroy());
      streaming = true;
      await reply
        .status(206)
        .headers({ 'content-type': 'application/vnd.pmtiles', 'content-length': String(range.end - range.start + 1), 'content-range': `bytes ${range.start}-${range.end}/${size}` })
        .send(stream);
    } finally {
      if (!streaming) await handle.close();
    }
  }
}
