import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { LookupAnswerSchema } from './lookup.answer.js';
import { LookupQuery } from './lookup.handler.js';
import { LookupRequest } from './lookup.request.js';

/** interface.md, "Addresses, hex codes and search"; decisions.md: the centre of the code's H3 cell. */
@ApiTags('addressing')
@ApiSecurity('api_key')
@Controller('v2')
export class LookupController {
  constructor(private readonly queries: QueryBus) {}

  @Get('lookup')
  @ApiOperation({
    summary: 'The point a hex code stands for: the centre of its H3 cell',
    description:
      'Accepts every shape of a code (compact, hyphenated, lower case; I, L, O read as 1, 1, 0). ' +
      '`provenance.source` is `geocoded_text`: the point is computed from the code, `accuracy_meters` is the centre-to-corner distance of the cell, `confidence` 0.5 (exact about the cell, but nothing observed says a place is there: docs/adr/0030), `verified_at` 2026-11-22T00:00:00.000Z, when the hexcode-v1 scheme fixed what every code means (not when this answer decoded it).',
  })
  @ApiAnswer(LookupAnswerSchema)
  @ApiResponse({
    status: 400,
    description: 'INVALID_PARAM: `address` missing; INVALID_CODE (field `address`): the message says what is wrong; when only the check character fails it names the likely intended codes',
  })
  lookup(@Query() query: LookupRequest): Promise<AnswerOf<typeof LookupAnswerSchema>> {
    return this.queries.execute(new LookupQuery(query.address));
  }
}
