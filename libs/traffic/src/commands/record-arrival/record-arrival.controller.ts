import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { RecordArrivalCommand } from './record-arrival.handler.js';

/** interface.md: POST /v2/navigation/arrival, Key: HTTP 204, never a 400. */
@ApiTags('navigation')
@ApiSecurity('api_key')
@Controller('v2/navigation/arrival')
export class RecordArrivalController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(204)
  @ApiOperation({
    summary: 'Report an arrival',
    description:
      'Every field is optional: `destination` {lat, lng}, `end` {lat, lng} (where the navigator ended up), `origin` {lat, lng}, `elapsed_s`, `mode`, `depart_at`. ' +
      'Missing, unreadable or zero coordinates are dropped; any body, even one that is not JSON, answers 204. The distance from `end` to `destination` is kept per destination hex (snapping quality); ' +
      'an origin with an elapsed time is a traffic sample compared with the static model (docs/adr/0025). ' +
      'A sample moves routes only once its cell and hour hold 5 samples from 3 distinct reporters, each counting for at most 2 samples, shrunk toward the prior (docs/adr/0031). ' +
      'A reporter is the client address together with the account of the key (a keyed hash of each); arrivals sharing an address or an account are one reporter. ' +
      'A free-tier account, or one younger than 30 days, weighs half a reporter (docs/adr/0056).',
  })
  @ApiResponse({ status: 204, description: 'Recorded (whatever could be read of it)' })
  async arrive(@Body() body: unknown, @Req() request: FastifyRequest): Promise<void> {
    const from = { accountId: request.principal?.account_id ?? null, keyPrefix: request.principal?.key_prefix ?? null, ip: request.ip };
    await this.commands.execute(new RecordArrivalCommand(body, { ...from, key: request.apiKey ? { tier: request.apiKey.tier, issued_at: request.apiKey.issued_at } : null }));
  }
}
