import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { callingKey } from '../../authentication/calling-key.js';
import { GetMeHandler } from './get-me.handler.js';

@ApiTags('keys')
@ApiSecurity('api_key')
@Controller('v2/me')
export class GetMeController {
  constructor(private readonly handler: GetMeHandler) {}

  @Get()
  @ApiOperation({ summary: 'The calling key: account, prefix, tier, daily limit and current usage' })
  me(@Req() request: FastifyRequest) {
    return this.handler.execute(callingKey(request));
  }
}
