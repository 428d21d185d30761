import { Controller, Delete, HttpCode, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { callerKeyPrefix, signedInAccount } from '../../signed-in.js';
import { ErasePositionsCommand } from './erase-positions.handler.js';
import { ErasePositionsAnswerSchema } from './erase-positions.answer.js';

/** Issue #18: positions are location data, erased when the owner asks. */
@ApiTags('locator')
@ApiSecurity('api_key')
@Controller('v2/locator')
export class ErasePositionsController {
  constructor(private readonly commands: CommandBus) {}

  @Delete('data')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({
    summary: 'Erase every position you ever checked in',
    description:
      'Destroys your location data key (every stored copy becomes unreadable), deletes the check-ins and records the erasure (when, how many, which token asked; no location). ' +
      'Your pairings stay: viewers see `position: null` until you check in again. To stop someone seeing you, revoke their pairing. Repeating the request is safe.',
  })
  @ApiAnswer(ErasePositionsAnswerSchema)
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED or PERSONAL_TOKEN_REQUIRED' })
  async erase(@Req() request: FastifyRequest): Promise<AnswerOf<typeof ErasePositionsAnswerSchema>> {
    const { events_erased, erased_at } = await this.commands.execute(new ErasePositionsCommand(signedInAccount(request), callerKeyPrefix(request)));
    return { erased: true as const, events_erased, erased_at };
  }
}
