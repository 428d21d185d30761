import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Allow, IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { LAT_LNG_SCHEMA } from '../../../../platform/src/index.js';

const POINT = {
  oneOf: [
    LAT_LNG_SCHEMA,
    { type: 'string', pattern: '^-?\\d{1,3}(\\.\\d+)?,-?\\d{1,3}(\\.\\d+)?$' },
  ],
};

/** POST /v2/route/transit. `from` and `to` are checked by the controller, which names the failing field (`from.lat`). */
export class PlanTransitTripRequest {
  @ApiProperty({ ...POINT, description: 'Where the trip starts: {lat, lng} or "lat,lng"', example: { lat: 5.5502, lng: -0.2174 } })
  @Allow()
  from: unknown;

  @ApiProperty({ ...POINT, description: 'Where it ends', example: { lat: 5.6037, lng: -0.187 } })
  @Allow()
  to: unknown;

  @ApiPropertyOptional({ description: "Day of travel, YYYY-MM-DD, in the feed's time zone (default: today there). Malformed: 400 INVALID_PARAM, field `date`", example: '2026-11-23' })
  @IsOptional()
  @IsString({ message: 'date must be a string YYYY-MM-DD' })
  @MaxLength(10, { message: 'date must be a calendar date YYYY-MM-DD' })
  date?: string;

  @ApiPropertyOptional({ description: "Clock time HH:MM or HH:MM:SS in the feed's time zone (default: now). The departure time, or with arrive_by the wanted arrival. Malformed: 400 INVALID_PARAM, field `time`", example: '07:30' })
  @IsOptional()
  @IsString({ message: 'time must be a string HH:MM or HH:MM:SS' })
  @MaxLength(8, { message: 'time must be a clock time HH:MM or HH:MM:SS' })
  time?: string;

  @ApiPropertyOptional({
    description: 'Case-insensitive substring selector: empty, absent, or containing "transit" (e.g. "TRANSIT,WALK") plans with vehicles; anything else plans walking only. A string or a list of strings',
    oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    example: 'transit,walk',
  })
  @Allow()
  modes?: unknown;

  @ApiPropertyOptional({ description: 'Accepted and ignored (interface.md): walking reach is fixed, see the description', type: 'number' })
  @Allow()
  max_walk_m?: unknown;

  @ApiPropertyOptional({ description: 'true: `date` and `time` are when to arrive, and the itineraries leave as late as possible', default: false })
  @IsOptional()
  @IsBoolean({ message: 'arrive_by must be true or false' })
  arrive_by?: boolean;
}
