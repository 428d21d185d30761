import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, Public, type AnswerOf } from '../../../../platform/src/index.js';
import { DEPARTURES_PER_LINE, MAX_BOARD_LINES } from '../../domain/departures.js';
import { GetDeparturesAnswerSchema } from './get-departures.answer.js';
import { GetDeparturesQuery } from './get-departures.handler.js';
import { DEFAULT_DEPARTURES_RADIUS_M, GetDeparturesRequest, MAX_DEPARTURES_RADIUS_M } from './get-departures.request.js';

/** interface.md, "Routing, transit, weather, language": GET /v2/transit/departures (public). */
@ApiTags('transit')
@Controller('v2/transit/departures')
export class GetDeparturesController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  @Public()
  @ApiOperation({
    summary: 'Lines to board near a point, with their destinations and next departures',
    description:
      `The lines that can be boarded at the stops within \`radius_m\` (default ${DEFAULT_DEPARTURES_RADIUS_M}, at most ${MAX_DEPARTURES_RADIUS_M}) of the point: ` +
      'one entry per route and destination (the trip headsign, else its last stop), at the nearest stop it can be boarded at. ' +
      'A line that only ends at these stops is left out (one cannot board it there), and so is one whose last stop is where the rider already is: the boarding stop, its cluster (the same parent station, or within 500 m) or another stop of the board. ' +
      `Timetabled services give their next ${DEPARTURES_PER_LINE} departures; headway-based ones (trotros: frequencies.txt, exact_times=0) give the headway and its window instead. ` +
      `At most ${MAX_BOARD_LINES} lines, nearest first. Times are ISO 8601 UTC with the feed's local clock beside them.`,
  })
  @ApiAnswer(GetDeparturesAnswerSchema)
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field (`lat`, `lng`, `radius_m`, `date`, `time`)' })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: the per-IP ceiling on requests without a key; wait Retry-After seconds' })
  @ApiResponse({ status: 503, description: 'DATASET_NOT_LOADED: no transit feed has been imported yet' })
  departures(@Query() request: GetDeparturesRequest): Promise<AnswerOf<typeof GetDeparturesAnswerSchema>> {
    const { lat, lng, radius_m, date, time } = request;
    return this.queries.execute(new GetDeparturesQuery({ lat, lng, radius_m, date, time }));
  }
}
