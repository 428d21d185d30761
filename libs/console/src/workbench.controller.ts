import path from 'node:path';
import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public, RawResponse } from '../../platform/src/index.js';
import { ASSETS, CSS, JS, MAP_LIBRARIES, PageFiles, type PageFile } from './page-files.js';

/** Every file the page may load, by its URL name: its own, and the map's libraries from node_modules (no CDN). */
const FILES: Record<string, PageFile> = {
  'workbench.js': { file: path.join(ASSETS, 'workbench.js'), type: JS },
  'workbench-verify.js': { file: path.join(ASSETS, 'workbench-verify.js'), type: JS },
  'workbench.css': { file: path.join(ASSETS, 'workbench.css'), type: CSS },
  ...MAP_LIBRARIES,
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
  private readonly files = new PageFiles(WORKBENCH_CSP);

  @Get()
  @Public()
  @RawResponse()
  async page(@Res() reply: FastifyReply): Promise<void> {
    await this.files.send(reply, path.join(ASSETS, 'workbench.html'), 'text/html; charset=utf-8');
  }

  @Get('assets/:file')
  @Public()
  @RawResponse()
  async asset(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const entry = Object.hasOwn(FILES, file) ? FILES[file] : undefined;
    if (!entry) throw new NotFoundException(`no workbench asset ${file}`);
    await this.files.send(reply, entry.file, entry.type);
  }
}
