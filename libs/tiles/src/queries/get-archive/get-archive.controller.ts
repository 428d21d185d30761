import { Controller, Get, Head, Param, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiHeader, ApiOperation, ApiParam, ApiProduces, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { RawResponse } from '../../../../platform/src/index.js';
import type { OpenArchive } from '../../archives.js';
import type { ConditionalHeaders } from '../../domain/preconditions.js';
import { GetArchiveQuery, PMTILES_CONTENT_TYPE } from './get-archive.handler.js';

const NAME_PARAM = {
  name: 'name',
  description: 'Archive name, with or without the `.pmtiles` suffix: 1-128 characters of A-Z, a-z, 0-9, `_` and `-`',
  example: 'firenze',
};

/**
 * interface.md, "GET /v2/tiles/{name}": the archive file itself, read by the
 * PMTiles client with HTTP range requests (RFC 9110 §14), outside the envelope
 * (decisions.md: binary answers); errors still use the envelope.
 */
@ApiTags('tiles')
@ApiSecurity('api_key')
@Controller('v2/tiles')
export class GetArchiveController {
  constructor(private readonly queries: QueryBus) {}

  // Declared before GET: Fastify then keeps this HEAD route instead of deriving one from GET that would read the whole file.
  @Head(':name')
  @RawResponse()
  @ApiParam(NAME_PARAM)
  @ApiOperation({ summary: 'The headers GET would answer (length, ETag, Last-Modified), without the body; Range is ignored as RFC 9110 requires' })
  @ApiResponse({ status: 200, description: 'The headers of the whole archive (Content-Length, ETag, Last-Modified, Accept-Ranges), no body' })
  @ApiResponse({ status: 304, description: 'The client’s copy is current (If-None-Match / If-Modified-Since)' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (field `name`): not a valid archive name (no body: HEAD)' })
  @ApiResponse({ status: 404, description: 'NOT_FOUND: no such archive (no body: HEAD)' })
  @ApiResponse({ status: 412, description: 'PRECONDITION_FAILED (If-Match / If-Unmodified-Since; no body: HEAD)' })
  async head(@Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.serve(name, request, reply, false);
  }

  @Get(':name')
  @RawResponse()
  @ApiParam(NAME_PARAM)
  @ApiOperation({
    summary: 'A PMTiles basemap archive, in whole or by byte range',
    description:
      'Single byte ranges (`bytes=a-b`, `bytes=a-`, `bytes=-n`) answer 206 with Content-Range; several ranges in one header are ignored and the whole archive is sent (200). ' +
      'Strong ETag from size and modification time; If-None-Match / If-Modified-Since answer 304, If-Match / If-Unmodified-Since 412, If-Range decides whether the range applies. ' +
      'CORS is open so a browser map on another origin can read it; send the key in the X-API-Key header (pmtiles `FetchSource` custom headers).',
  })
  @ApiProduces(PMTILES_CONTENT_TYPE)
  @ApiHeader({ name: 'Range', required: false, description: 'One byte range, e.g. `bytes=0-16383`' })
  @ApiHeader({ name: 'If-Range', required: false, description: 'ETag or Last-Modified of the copy the client holds part of' })
  @ApiHeader({ name: 'If-None-Match', required: false })
  @ApiHeader({ name: 'If-Modified-Since', required: false })
  @ApiResponse({ status: 200, description: 'The whole archive', content: { [PMTILES_CONTENT_TYPE]: { schema: { type: 'string', format: 'binary' } } } })
  @ApiResponse({ status: 206, description: 'The requested range; Content-Range `bytes a-b/size`', content: { [PMTILES_CONTENT_TYPE]: { schema: { type: 'string', format: 'binary' } } } })
  @ApiResponse({ status: 304, description: 'The client’s copy is current (If-None-Match / If-Modified-Since)' })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (field `name`): not a valid archive name' })
  @ApiResponse({ status: 404, description: 'NOT_FOUND: no such archive' })
  @ApiResponse({ status: 412, description: 'PRECONDITION_FAILED (If-Match / If-Unmodified-Since)' })
  @ApiResponse({ status: 416, description: 'RANGE_NOT_SATISFIABLE; Content-Range `bytes */size`' })
  async get(@Param('name') name: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    await this.serve(name, request, reply, true);
  }

  private async serve(name: string, request: FastifyRequest, reply: FastifyReply, withBody: boolean): Promise<void> {
    const answer = await this.queries.execute(new GetArchiveQuery(name, request.headers as ConditionalHeaders, header(request, 'range'), withBody));
    let streaming = false;
    try {
      for (const [field, value] of answer.headers) void reply.header(field, value);
      if (answer.refusal) throw answer.refusal;
      if (answer.status !== 200) void reply.status(answer.status);
      if (!answer.body) {
        await reply.send();
        return;
      }
      streaming = true;
      await reply.send(this.stream(answer.archive, answer.body.start, answer.body.end, reply));
    } finally {
      if (!streaming) await answer.archive.handle.close();
    }
  }

  /**
   * Streams from the open handle, never buffering the archive. The handle
   * closes when the stream ends or is destroyed; a response that ends without
   * consuming it (client gone, or a failed audit answering 503 instead)
   * destroys it, so no descriptor is left to the garbage collector.
   */
  private stream(archive: OpenArchive, start: number, end: number, reply: FastifyReply) {
    const stream = archive.handle.createReadStream({ start, end, autoClose: true });
    reply.raw.once('close', () => stream.destroy());
    return stream;
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
