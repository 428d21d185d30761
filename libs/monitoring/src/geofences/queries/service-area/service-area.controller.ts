import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyReply } from 'fastify';
import { Expensive, RawResponse, yieldingBytes } from '../../../../../platform/src/index.js';
import { SERVICE_AREA_MAX_CELLS, SERVICE_AREA_MAX_COMPUTED_CELLS } from '../../domain/service-area.js';
import { ServiceAreaQuery } from './service-area.handler.js';
import { ServiceAreaRequest } from './service-area.request.js';
import { ApiAnswer } from '../../../../../platform/src/index.js';
import { ServiceAreaAnswerSchema } from './service-area.answer.js';

/** interface.md, "Identity, consent, monitoring": an H3 cell-cover service area. Pure computation: nothing is stored. */
@ApiTags('geofences')
@ApiSecurity('api_key')
@Controller('v2')
export class ServiceAreaController {
  constructor(private readonly queries: QueryBus) {}

  @Post('service-area')
  @HttpCode(200)
  // Up to SERVICE_AREA_MAX_COMPUTED_CELLS cells of H3 work: at most EXPENSIVE_CONCURRENCY_PER_KEY at once per key (issue 31).
  @Expensive()
  // The envelope's bytes come from the service-area thread, written a chunk per turn of the loop (docs/adr/0044).
  @RawResponse()
  @ApiOperation({
    summary: "The H3 cells of a polygon, as hex codes and as H3 indexes",
    description:
      `At most ${SERVICE_AREA_MAX_CELLS} cells per answer and ${SERVICE_AREA_MAX_COMPUTED_CELLS} computed before compaction; ` +
      'a larger area is refused with SERVICE_AREA_TOO_LARGE (400, field resolution) rather than truncated.',
  })
  @ApiAnswer(ServiceAreaAnswerSchema, { requestExample: { polygon: { type: 'Polygon', coordinates: [[[-0.215, 5.545], [-0.205, 5.545], [-0.205, 5.555], [-0.215, 5.555], [-0.215, 5.545]]] }, resolution: 9 } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field, or SERVICE_AREA_TOO_LARGE' })
  @ApiResponse({ status: 503, description: "SERVICE_AREA_BUSY (Retry-After): the service-area thread's queue is full, or the area ran past its time; `details.reason` says which" })
  async cover(@Body() body: ServiceAreaRequest, @Res() reply: FastifyReply): Promise<FastifyReply> {
    const answer = await this.queries.execute(new ServiceAreaQuery(body));
    return reply.status(200).header('content-type', 'application/json; charset=utf-8').send(yieldingBytes(answer));
  }
}
