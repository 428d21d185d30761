import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { MAX_ROUNDS } from '../../domain/raptor.js';
import { MAX_ITINERARIES } from '../../domain/planner.js';
import { ACCESS_RADIUS_M, MAX_DIRECT_WALK_M, TRANSFER_RADIUS_M, WALK_DETOUR_FACTOR, WALK_SPEED_MPS } from '../../domain/walking.js';
import { PLAN_TIMEOUT_MS } from '../../public/planner-pool.js';
import { PlanTransitTripAnswerSchema } from './plan-transit-trip.answer.js';
import { PlanTransitTripQuery } from './plan-transit-trip.handler.js';
import { PlanTransitTripRequest } from './plan-transit-trip.request.js';

/** interface.md, "Routing, transit, weather, language": POST /v2/route/transit → itineraries, no_transit, note. */
@ApiTags('transit')
@ApiSecurity('api_key')
@Controller('v2/route/transit')
export class PlanTransitTripController {
  constructor(private readonly queries: QueryBus) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Public-transit itineraries (trotro, bus) between two points',
    description:
      `RAPTOR over the imported GTFS feed (docs/adr/0019): up to ${MAX_ITINERARIES} itineraries, Pareto-optimal on arrival time and number of vehicles ` +
      `(at most ${MAX_ROUNDS}), walking alone included when under ${MAX_DIRECT_WALK_M / 1000} km and flagged \`walk_only\`. ` +
      'Headway-based services (frequencies.txt with exact_times=0, as trotros are) have no timetable: boarding waits half the headway in expectation, ' +
      'and their legs say `times_estimated: true` with `expected_wait_s`. ' +
      `Walking is the straight line × ${WALK_DETOUR_FACTOR} at ${WALK_SPEED_MPS} m/s: to and from stops within ${ACCESS_RADIUS_M} m, between stops within ${TRANSFER_RADIUS_M} m. ` +
      '`no_transit` is true when no itinerary uses a vehicle (none found included); `note` says why, and that the timetable is out of date when the feed\'s calendar has ended ' +
      '(its last week then answers). `first_trip`/`last_trip` appear when nothing runs because the time is before the first or after the last departure near the origin. ' +
      'Times are ISO 8601 UTC; `date`/`time` are read in the feed\'s time zone.',
  })
  @ApiAnswer(PlanTransitTripAnswerSchema, { requestExample: { from: { lat: 5.5652, lng: -0.2349 }, to: { lat: 5.5701, lng: -0.2153 }, date: '2026-11-27', time: '07:30', modes: 'transit,walk' } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM naming the field (`from`, `from.lat`, `to`, `date`, `time`, `modes`, `arrive_by`)' })
  @ApiResponse({
    status: 503,
    description:
      'DATASET_NOT_LOADED: no transit feed has been imported yet. TRANSIT_BUSY, with Retry-After: every planner thread is busy and the queue is full, ' +
      `the thread planning this request failed, or planning took longer than ${PLAN_TIMEOUT_MS / 1000} s (docs/adr/0019)`,
  })
  plan(@Body() request: PlanTransitTripRequest): Promise<AnswerOf<typeof PlanTransitTripAnswerSchema>> {
    const { from, to, date, time, modes, arrive_by } = request;
    return this.queries.execute(new PlanTransitTripQuery({ from, to, date, time, modes, arrive_by }));
  }
}
