import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { signedInAccount } from '../../signed-in.js';
import { CheckInCommand } from './check-in.handler.js';
import { CheckInRequest } from './check-in.request.js';
import { CheckInAnswerSchema } from './check-in.answer.js';

/** interface.md, "Partner locator": POST /v2/locator/checkin reports the caller's own location; identity is the account, not the device. */
@ApiTags('locator')
@ApiSecurity('api_key')
@Controller('v2/locator')
export class CheckInController {
  constructor(private readonly commands: CommandBus) {}

  @Post('checkin')
  @HttpCode(200)
  @AccountOnly()
  @ApiOperation({
    summary: 'Report your own position',
    description:
      'Any of your signed-in devices may check in; viewers see the latest check-in of your account with its age. ' +
      'Stored sealed under a data key of your own (AES-256-GCM); DELETE /v2/locator/data destroys the key and erases every check-in.',
  })
  @ApiAnswer(CheckInAnswerSchema, { requestExample: { lat: 5.6037, lng: -0.187, accuracy_m: 12 } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (`lat`, `lng`, `accuracy_m`)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED or PERSONAL_TOKEN_REQUIRED' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: other requests kept changing the same position (many check-ins of one account at once) while this one was retried (10 retries with a random back-off); send it again' })
  async checkIn(@Req() request: FastifyRequest, @Body() body: CheckInRequest): Promise<AnswerOf<typeof CheckInAnswerSchema>> {
    const accountId = signedInAccount(request);
    const { state } = await this.commands.execute(new CheckInCommand({ type: 'CheckIn', account_id: accountId, lat: body.lat, lng: body.lng, accuracy_m: body.accuracy_m ?? null }));
    if (!state.last) throw new Error('a check-in left no position');
    return state.last;
  }
}
