import { Controller, Delete, Param, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly } from '../../../../../platform/src/index.js';
import { callingAccount } from '../../../../../platform/src/index.js';
import { FENCE_ID, GeofenceNotFoundError } from '../../domain/geofence.js';
import { DeleteGeofenceCommand } from './delete-geofence.handler.js';
import { ApiAnswer, type AnswerOf } from '../../../../../platform/src/index.js';
import { GeofenceDeletedSchema } from './delete-geofence.answer.js';

/** Not in interface.md: a lender must be able to stop a fence (decided in the README, "Geofences"). */
@ApiTags('geofences')
@ApiSecurity('api_key')
@Controller('v2/geofence')
export class DeleteGeofenceController {
  constructor(private readonly commands: CommandBus) {}

  @Delete(':id')
  @AccountOnly()
  @ApiOperation({ summary: 'Delete a geofence: pings are no longer checked against it from the moment this answers' })
  @ApiAnswer(GeofenceDeletedSchema)
  @ApiResponse({ status: 404, description: 'GEOFENCE_NOT_FOUND: no such active fence under your account (deleting twice is a 404)' })
  async delete(@Req() request: FastifyRequest, @Param('id') id: string): Promise<AnswerOf<typeof GeofenceDeletedSchema>> {
    if (!FENCE_ID.test(id)) throw new GeofenceNotFoundError(id);
    const { state } = await this.commands.execute(new DeleteGeofenceCommand({ type: 'DeleteGeofence', account_id: callingAccount(request), fence_id: id }));
    if (state.status !== 'deleted') throw new Error('a delete left the geofence not deleted');
    return { id, deleted: true, deleted_at: state.deleted_at };
  }
}
