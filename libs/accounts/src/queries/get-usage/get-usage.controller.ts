import { Controller, Get, Req } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { callingKey } from '../../authentication/calling-key.js';
import { GetUsageQuery } from './get-usage.handler.js';

@ApiTags('keys')
@ApiSecurity('api_key')
@Controller('v2/usage')
export class GetUsageController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @ApiOperation({ summary: 'Consumption against the plan over the rolling 24 h window' })
  usage(@Req() request: FastifyRequest) {
    return this.queries.execute(new GetUsageQuery(callingKey(request)));
  }
}
