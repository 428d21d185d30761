import { Controller, Options, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../platform/src/index.js';

/**
 * CORS for the tiles routes only, so that MapLibre in a browser on any origin
 * can read archives (https://fetch.spec.whatwg.org/#http-cors-protocol). The
 * origin is `*`: the key travels in a header, never in cookies, so no
 * credentials mode is needed. The exposed headers let the PMTiles client see
 * Content-Range and ETag (it compares ETags to notice a replaced archive).
 */
export const TILES_CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'Content-Range, Content-Length, Accept-Ranges, ETag, Last-Modified, X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After',
};

const PREFLIGHT_HEADERS = {
  ...TILES_CORS_HEADERS,
  'access-control-allow-methods': 'GET, HEAD, OPTIONS',
  'access-control-allow-headers': 'X-API-Key, Range, If-Range, If-None-Match, If-Modified-Since, If-Match, If-Unmodified-Since',
  'access-control-max-age': '86400',
};

function isTilesPath(url: string): boolean {
  return url === '/v2/tiles' || url.startsWith('/v2/tiles/') || url.startsWith('/v2/tiles?');
}

/**
 * Adds the CORS headers to every answer under /v2/tiles, errors included: a
 * browser shows a script a 401 or 429 only when it carries them. onSend runs
 * for answers the guard, the filter or a request gate produced, too.
 */
export function installTilesCors(fastify: FastifyInstance): void {
  fastify.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (isTilesPath(request.url)) void reply.headers(TILES_CORS_HEADERS);
    return payload;
  });
}

/** The preflight a browser sends before a request with X-API-Key or conditional headers; it carries no key. */
@ApiExcludeController()
@Controller('v2/tiles')
export class TilesPreflightController {
  @Options()
  @Public()
  list(@Res() reply: FastifyReply) {
    return reply.status(204).headers(PREFLIGHT_HEADERS).send();
  }

  @Options(':name')
  @Public()
  archive(@Res() reply: FastifyReply) {
    return reply.status(204).headers(PREFLIGHT_HEADERS).send();
  }
}
