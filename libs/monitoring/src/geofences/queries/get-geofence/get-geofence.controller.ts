import { Controller, Get, Param, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly } from '../../../../../platform/src/index.js';
import { callingAccount } from '../../../../../platform/src/index.js';
import { GetGeofenceQuery } from './get-geofence.handler.js';
import { ApiAnswer, type AnswerOf } from '../../../../../platform/src/index.js';
import { GeofenceAnswerSchema } from '../../http/geofence-answer.js';

/** Not in interface.md; the lender reads back what it defined. */
@ApiTags('geofences')
@ApiSecurity('api_key')
@Controller('v2/geofence')
export class GetGeofenceController {
  constructor(private readonly queries: QueryBus) {}

  @Get(':id')
  @AccountOnly()
  @ApiOperation({ summary: 'One active geofence, as POST /v2/geofence/create answered it' })
  @ApiAnswer(GeofenceAnswerSchema)
  @ApiResponse({ status: 404, description: 'GEOFENCE_NOT_FOUND: unknown, deleted, or another account’s' })
  get(@Req() request: FastifyRequest, @Param('id') id: string): Promise<AnswerOf<typeof GeofenceAnswerSchema>> {
    return this.queries.execute(new GetGeofenceQuery(callingAccount(request), id));
  }
}
