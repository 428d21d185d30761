import { Controller, Get, Query, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly } from '../../../../../platform/src/index.js';
import { callingAccount } from '../../../../../platform/src/index.js';
import { ListGeofencesQuery } from './list-geofences.handler.js';
import { LIST_DEFAULT_LIMIT, ListGeofencesRequest } from './list-geofences.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../../platform/src/index.js';
import { GeofencePageSchema } from './list-geofences.answer.js';

/** Not in interface.md; the account's active fences from the `geofences` read model, newest first. */
@ApiTags('geofences')
@ApiSecurity('api_key')
@Controller('v2/geofence')
export class ListGeofencesController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @AccountOnly()
  @ApiOperation({ summary: "The account's active geofences, newest first" })
  @ApiAnswer(GeofencePageSchema)
  list(@Req() request: FastifyRequest, @Query() query: ListGeofencesRequest): Promise<AnswerOf<typeof GeofencePageSchema>> {
    return this.queries.execute(new ListGeofencesQuery(callingAccount(request), { customer_id: query.customer_id, limit: query.limit ?? LIST_DEFAULT_LIMIT, cursor: query.cursor }));
  }
}
