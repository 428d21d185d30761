import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Controller, Get, NotFoundException, Param, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public, RawResponse } from '../../platform/src/index.js';
import { PageFiles } from './page-files.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const firstExisting = (...dirs: string[]) => dirs.find((dir) => existsSync(dir)) ?? dirs[0];
// tsc does not copy the page's files to dist/: a compiled build reads them from the sources.
const ASSETS = firstExisting(path.join(HERE, 'assets'), path.resolve(HERE, '../../../../libs/console/src/assets'));
/** The per-area guides (docs/guides/*.md), moved out of the README (issue 28, item 9). */
export const GUIDES_DIR = firstExisting(path.resolve(HERE, '../../../docs/guides'), path.resolve(HERE, '../../../../docs/guides'));
const require = createRequire(import.meta.url);
const REDOC = require.resolve('redoc/bundles/redoc.standalone.js');
/** The one address off this origin Redoc's bundle loads by itself (its footer logo). */
export const REDOC_LOGO = 'https://cdn.redoc.ly/redoc/logo-mini.svg';

const FILES: Record<string, { file: string; type: string }> = {
  'docs.js': { file: path.join(ASSETS, 'docs.js'), type: 'text/javascript; charset=utf-8' },
  'docs.css': { file: path.join(ASSETS, 'docs.css'), type: 'text/css; charset=utf-8' },
  'redoc.standalone.js': { file: REDOC, type: 'text/javascript; charset=utf-8' },
};

/**
 * Only this origin. Redoc styles its components with styled-components, which
 * inserts <style> elements at run time: style-src needs 'unsafe-inline' (no
 * script runs from it; scripts stay 'self' only, without 'unsafe-eval'). Its
 * search index runs in a worker made from a blob: URL. docs/adr/0040.
 */
export const DOCS_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const GUIDE_NAME = /^[a-z0-9-]+\.md$/;
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The guides by file name, with the title of their first heading; read once at start. */
export function listGuides(dir = GUIDES_DIR): Array<{ name: string; title: string }> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => GUIDE_NAME.test(name))
    .sort()
    .map((name) => {
      const heading = /^#\s+(.+)$/m.exec(readFileSync(path.join(dir, name), 'utf8'));
      return { name, title: heading ? heading[1].trim() : name.replace(/\.md$/, '') };
    });
}

/**
 * The reference page (issue 28, item 5): Redoc, served from node_modules (no
 * CDN), drawing GET /v2/openapi.json, with the guides linked above it and
 * served as text/markdown. Public, outside /v2 like the console: static bytes
 * from memory, no key and no per-IP counter (docs/adr/0040).
 */
@ApiExcludeController()
@Controller('docs')
export class DocsController {
  // Redoc's menu footer loads its logo from a CDN, which the CSP refuses (a violation in the console): no logo.
  private readonly files = new PageFiles(DOCS_CSP, (file, body) => (file === REDOC ? Buffer.from(body.toString('utf8').replace(`"${REDOC_LOGO}"`, '""')) : body));
  private readonly guides = listGuides();
  private page?: Buffer;

  @Get()
  @Public()
  @RawResponse()
  async index(@Res() reply: FastifyReply): Promise<void> {
    if (!this.page) {
      const template = await readFile(path.join(ASSETS, 'docs.html'), 'utf8');
      const links = this.guides.map(({ name, title }) => `    <li><a href="/docs/guides/${escapeHtml(name)}">${escapeHtml(title)}</a></li>`).join('\n');
      this.page = Buffer.from(template.replace('<!--GUIDES-->', links));
    }
    await this.files.sendBody(reply, this.page, 'text/html; charset=utf-8');
  }

  @Get('assets/:file')
  @Public()
  @RawResponse()
  async asset(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    const entry = Object.hasOwn(FILES, file) ? FILES[file] : undefined;
    if (!entry) throw new NotFoundException(`no docs asset ${file}`);
    await this.files.send(reply, entry.file, entry.type);
  }

  @Get('guides/:file')
  @Public()
  @RawResponse()
  async guide(@Param('file') file: string, @Res() reply: FastifyReply): Promise<void> {
    // Only names listed at start: nothing outside docs/guides can be asked for.
    if (!this.guides.some((guide) => guide.name === file)) throw new NotFoundException(`no guide ${file}`);
    await this.files.send(reply, path.join(GUIDES_DIR, file), 'text/markdown; charset=utf-8');
  }
}
