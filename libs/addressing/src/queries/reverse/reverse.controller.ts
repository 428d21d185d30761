import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { ReverseAnswerSchema } from './reverse.answer.js';
import { ReverseQuery } from './reverse.handler.js';
import { ReverseRequest } from './reverse.request.js';

/** interface.md, "Addresses, hex codes and search"; decisions.md: `data.code` with `data.provenance`. */
@ApiTags('addressing')
@ApiSecurity('api_key')
@Controller('v2')
export class ReverseController {
  constructor(private readonly queries: QueryBus) {}

  @Get('reverse')
  @ApiOperation({
    summary: 'The hex code of the cell holding a point',
    description:
      'Answers the code, its display form, and the centre of its cell (`lat`, `lng`). `distance_m` is how far the given point lies from the centre. ' +
      'The `provenance` describes the point you sent: `source` as you say you got it (`source`, default `device_gps`), `provider: "caller"`, ' +
      '`accuracy_meters` your `accuracy_m` (default: the centre-to-corner distance of the cell), `verified_at` when the request arrived. ' +
      '`confidence` by source (docs/adr/0030): device_gps 0.68 with `accuracy_m`, 0.34 without; agent_verified 0.8; user_confirmed 0.6; geocoded_text and third_party_match 0.5. ' +
      '`user_confirmed` and `agent_verified` need `confirmed_by` (who confirmed; 400 INVALID_PARAM without it), recorded in the provenance. ' +
      '`address` names the point you sent from the loaded reference data (null parts where the data cannot say): `country` ({code, name}, inside the boundaries only), ' +
      '`region` and `district` (point in polygon), `locality` (the nearest city, town, village, suburb or neighbourhood within 5 km), `road` (the nearest road with a name or ref within 200 m, where roads are loaded) ' +
      'and `landmark` (the nearest within 500 m), each with its `dataset` and `distance_m`; `formatted`, one line the way directions are given in Ghana ' +
      '("near Makola Market, Accra Central, Accra Metropolis, Greater Accra"); `datasets`, the versions used. The data covers Ghana only: elsewhere every part is null.',
  })
  @ApiAnswer(ReverseAnswerSchema, { serialise: true })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming `lat`, `lng`, `resolution`, `source` or `confirmed_by`' })
  reverse(@Query() query: ReverseRequest): Promise<AnswerOf<typeof ReverseAnswerSchema>> {
    return this.queries.execute(new ReverseQuery(query.lat, query.lng, query.resolution, query.source, query.accuracy_m, query.confirmed_by));
  }
}
