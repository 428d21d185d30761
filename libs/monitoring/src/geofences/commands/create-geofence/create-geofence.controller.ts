import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, Expensive } from '../../../../../platform/src/index.js';
import { callingAccount } from '../../../../../platform/src/index.js';
import { MAX_FENCES_PER_ACCOUNT, parseFenceGeometry } from '../../domain/geofence.js';
import { CreateGeofenceCommand } from './create-geofence.handler.js';
import { CreateGeofenceRequest } from './create-geofence.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../../platform/src/index.js';
import { GeofenceAnswerSchema } from '../../http/geofence-answer.js';

/** interface.md, "Identity, consent, monitoring": a geofence; pings that land inside it emit geofence_breach. */
@ApiTags('geofences')
@ApiSecurity('api_key')
@Controller('v2/geofence')
export class CreateGeofenceController {
  constructor(private readonly commands: CommandBus) {}

  @Post('create')
  @HttpCode(201)
  @AccountOnly()
  // An isochrone fence is a road search of up to 60 minutes: at most EXPENSIVE_CONCURRENCY_PER_KEY at once per key (issue 31).
  @Expensive({ when: (body) => typeof body === 'object' && body !== null && (body as { fence_type?: unknown }).fence_type === 'isochrone' })
  @ApiOperation({
    summary: 'Create a circle, polygon or isochrone geofence',
    description:
      'Every later ping of a covered customer (customer_id, or all of your customers when it is absent) that lands inside fires geofence_breach. ' +
      'The fence is evaluated from the moment this answers. Points on the edge count as inside. ' +
      'An isochrone fence (center, minutes 1-60, mode) is the area reachable on the road network from center within minutes, outlined by the H3 cells its roads cross; ' +
      'it answers its polygon and isochrone {minutes, mode, snapped, h3_resolution}. ' +
      `Fences are immutable: to change one, create the new one and delete the old. At most ${MAX_FENCES_PER_ACCOUNT} active fences per account.`,
  })
  @ApiAnswer(GeofenceAnswerSchema, { status: 201, requestExample: { fence_type: 'circle', name: 'Makola branch, collections zone', center: { lat: 5.5489, lng: -0.2101 }, radius_m: 500 } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field (e.g. `polygon.coordinates[0]` for a self-intersecting ring, `minutes`, `mode`)' })
  @ApiResponse({ status: 409, description: 'GEOFENCE_LIMIT_REACHED' })
  @ApiResponse({ status: 422, description: 'NO_ROAD_NEARBY: an isochrone centre more than 1 km from any road open to the mode' })
  @ApiResponse({ status: 503, description: "ROAD_NETWORK_NOT_LOADED: isochrone fences need the road network (import:roads, or the starter); ISOCHRONE_BUSY (Retry-After): the outline thread's queue is full, or the outline ran past its time" })
  create(@Req() request: FastifyRequest, @Body() body: CreateGeofenceRequest): Promise<AnswerOf<typeof GeofenceAnswerSchema>> {
    const geometry = parseFenceGeometry(body);
    return this.commands.execute(new CreateGeofenceCommand(callingAccount(request), { geometry, name: body.name ?? null, customer_id: body.customer_id ?? null, loan_id: body.loan_id ?? null }));
  }
}
