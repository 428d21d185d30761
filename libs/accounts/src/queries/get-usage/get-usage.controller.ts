import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { callingKey } from '../../authentication/calling-key.js';
import { GetUsageHandler } from './get-usage.handler.js';

@ApiTags('keys')
@ApiSecurity('api_key')
@Controller('v2/usage')
export class GetUsageController {
  constructor(private readonly handler: GetUsageHandler) {}

  @Get()
  @ApiOperation({ summary: 'Consumption against the plan over the rolling 24 h window' })
  usage(@Req() request: FastifyRequest) {
    return this.handler.execute(callingKey(request));
  }
}
