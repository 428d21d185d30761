import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyReply } from 'fastify';

const HERE = path.dirname(fileURLToPath(import.meta.url));
// tsc does not copy the pages' files to dist/: a compiled build reads them from the sources.
export const ASSETS = [path.join(HERE, 'assets'), path.resolve(HERE, '../../../../libs/console/src/assets')].find((dir) => existsSync(dir)) ?? path.join(HERE, 'assets');

export const JS = 'text/javascript; charset=utf-8';
export const CSS = 'text/css; charset=utf-8';

/** A file a page may load, by its URL name. */
export type PageFile = { file: string; type: string };

const require = createRequire(import.meta.url);
const MAPLIBRE_DIST = path.dirname(require.resolve('maplibre-gl/dist/maplibre-gl.css'));
const PMTILES_DIST = path.join(path.dirname(require.resolve('pmtiles/package.json')), 'dist');
const H3_DIST = path.join(path.dirname(require.resolve('h3-js/package.json')), 'dist');

/** The map's libraries, served from node_modules (no CDN): what the console and the workbench both load. */
export const MAP_LIBRARIES: Readonly<Record<string, PageFile>> = {
  'maplibre-gl.mjs': { file: path.join(MAPLIBRE_DIST, 'maplibre-gl.mjs'), type: JS },
  'maplibre-gl-worker.mjs': { file: path.join(MAPLIBRE_DIST, 'maplibre-gl-worker.mjs'), type: JS },
  'maplibre-gl.css': { file: path.join(MAPLIBRE_DIST, 'maplibre-gl.css'), type: CSS },
  'pmtiles.js': { file: path.join(PMTILES_DIST, 'pmtiles.js'), type: JS },
  'h3-js.umd.js': { file: path.join(H3_DIST, 'h3-js.umd.js'), type: JS },
};

/**
 * The bundled files of one page (console, workbench, /docs): read once and
 * kept, answered with the page's CSP and the headers every page shares.
 */
export class PageFiles {
  private readonly cache = new Map<string, Buffer>();

  constructor(
    private readonly csp: string,
    /** Rewrites a file once as it is first read (the docs page strips Redoc's CDN logo). */
    private readonly prepare: (file: string, body: Buffer) => Buffer = (_file, body) => body,
  ) {}

  async read(file: string): Promise<Buffer> {
    let body = this.cache.get(file);
    if (!body) {
      body = this.prepare(file, await readFile(file));
      this.cache.set(file, body);
    }
    return body;
  }

  async send(reply: FastifyReply, file: string, type: string): Promise<void> {
    await this.sendBody(reply, await this.read(file), type);
  }

  async sendBody(reply: FastifyReply, body: Buffer, type: string): Promise<void> {
    await reply
      .headers({
        'content-type': type,
        'content-security-policy': this.csp,
        'x-content-type-options': 'nosniff',
        'referrer-policy': 'no-referrer',
        'cache-control': 'no-cache',
      })
      .send(body);
  }
}
