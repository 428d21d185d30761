import { Body, Controller, Param, Put, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { latLngToCell } from 'h3-js';
import { cellFromHexCode } from '../../../../addressing/src/index.js';
import { AccountOnly, InvalidParamError } from '../../../../platform/src/index.js';
import { callingAccount } from '../../../../platform/src/index.js';
import { parseCustomerId } from '../../domain/consent.js';
import { DEFAULT_TOLERANCE_HOPS, DEFAULT_ZONE_RESOLUTION } from '../../domain/location.js';
import { GetDriftQuery } from '../../drift/drift.query.js';
import { RegisterZoneCommand } from './register-zone.handler.js';
import { RegisterZoneRequest } from './register-zone.request.js';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { DriftStateSchema } from '../../drift/drift.answer.js';

/**
 * PUT /v2/monitoring/zones/{customer_id}: registers (or replaces) the zone
 * drift is measured against. Replacing a zone restarts the watch: the next
 * ping decides whether the customer is out.
 */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/monitoring/zones')
export class RegisterZoneController {
  constructor(
    private readonly commands: CommandBus,
    private readonly queries: QueryBus,
  ) {}

  @Put(':customer_id')
  @AccountOnly()
  @ApiOperation({ summary: "Register a customer's zone: {lat, lng} or {home_hex}, plus tolerance_hops" })
  @ApiAnswer(DriftStateSchema, { description: 'The drift state against the new zone (as GET /v2/monitoring/drift)', requestExample: { lat: 5.55031, lng: -0.21739, tolerance_hops: 2 } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field; INVALID_CODE (field `home_hex`) for a mistyped hex code, with `details {reason, suggestions}`' })
  @ApiResponse({ status: 403, description: 'CONSENT_REQUIRED: the customer has not granted location consent' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: ping batches of this customer kept landing first; retry' })
  async register(@Req() request: FastifyRequest, @Param('customer_id') customerParam: string, @Body() body: RegisterZoneRequest): Promise<AnswerOf<typeof DriftStateSchema>> {
    const accountId = callingAccount(request);
    const customerId = parseCustomerId(customerParam);
    await this.commands.execute(
      new RegisterZoneCommand({
        type: 'RegisterZone',
        account_id: accountId,
        customer_id: customerId,
        home_cell: zoneCell(body),
        tolerance_hops: body.tolerance_hops ?? DEFAULT_TOLERANCE_HOPS,
      }),
    );
    return this.queries.execute(new GetDriftQuery(accountId, customerId));
  }
}

function zoneCell(body: RegisterZoneRequest): string {
  const hasPoint = body.lat !== undefined || body.lng !== undefined;
  if (body.home_hex !== undefined) {
    if (hasPoint) throw new InvalidParamError('give either home_hex or lat and lng, not both', 'home_hex');
    return cellFromHexCode(body.home_hex, 'home_hex');
  }
  if (body.lat === undefined || body.lng === undefined) throw new InvalidParamError('give the zone as home_hex or as lat and lng', body.lat === undefined ? 'lat' : 'lng');
  return latLngToCell(body.lat, body.lng, body.resolution ?? DEFAULT_ZONE_RESOLUTION);
}
