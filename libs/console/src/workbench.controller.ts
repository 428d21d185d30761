import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public, RawResponse } from '../../platform/src/index.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
// tsc does not copy the page's files to dist/: a compiled build reads them from the sources.
const ASSETS = [path.join(HERE, 'assets'), path.resolve(HERE, '../../../../libs/console/src/assets')].find((dir) => existsSync(dir)) ?? path.join(HERE, 'assets');
const require = createRequire(import.meta.url);
const MAPLIBRE_DIST = path.dirname(require.resolve('maplibre-gl/dist/maplibre-gl.css'));
const PMTILES_DIST = path.join(path.dirname(require.resolve('pmtiles/package.json')), 'dist');
const H3_DIST = path.join(path.dirname(require.resolve('h3-js/package.json')), 'dist');

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';

/** Every file the page may load, by its URL name: its own, and the map's libraries from node_modules (no CDN). */
const FILES: Record<string, { file: string; type: string }> = {
  'workbench.js': { file: path.join(ASSETS, 'workbench.js'), type: JS },
  'workbench-verify.js': { file: path.join(ASSETS, 'workbench-verify.js'), type: JS },
  'workbench.css': { file: path.join(ASSETS, 'workbench.css'), type: CSS },
  'maplibre-gl.mjs': { file: path.join(MAPLIBRE_DIST, 'maplibre-gl.mjs'), type: JS },
  'maplibre-gl-worker.mjs': { file: path.join(MAPLIBRE_DIST, 'maplibre-gl-worker.mjs'), type: JS },
  'maplibre-gl.css': { file: path.join(MAPLIBRE_DIST, 'maplibre-gl.css'), type: CSS },
  'pmtiles.js': { file: path.join(PMTILES_DIST, 'pmtiles.js'), type: JS },
  'h3-js.umd.js': { file: path.join(H3_DIST, 'h3-js.umd.js'), type: JS },
};

/**
 * Only this origin, as the console's: MapLibre runs its workers from blob:
 * URLs and draws from blob:/data: images. No form posts anywhere (the page
 * calls the API with fetch), no frames.
 */
export const WORKBENCH_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The compliance workbench (issue 51): a static page and its scripts, outside
 * /v2 and without a key, like the console. It holds no secrets and no data:
 * signed in with a banking account's personal token (or a key), it makes
 * ordinary, audited /v2 calls under that identity, so it shows nothing the API
 * would not (docs/adr/0062).
 */
@ApiExcludeController()
@Controller('workbench')
export class WorkbenchController {
  private readonly cache = new Map<string, Buffer>();

  @Get()
  @Public()
  @RawResponse()
  async page(@Res() reply: FastifyReply): Promise<void> {
    await this.send(reply, path.join(ASSETS, 'workbench.html'), 'text/html; charset=utf-8');
  }

  @Get('assets/:file')
  @Public()
  @RawResponse()
  async asset(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const entry = Object.hasOwn(FILES, file) ? FILES[file] : undefined;
    if (!entry) throw new NotFoundException(`no workbench asset ${file}`);
    await this.send(reply, entry.file, entry.type);
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
        'content-security-policy': WORKBENCH_CSP,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-cache',
      })
      .send(body);
  }
}
