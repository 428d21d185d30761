import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsNumber, IsObject, IsOptional, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { callerIdMessage, CUSTOMER_ID_MESSAGE } from '../../../../../platform/src/index.js';
import { CUSTOMER_ID } from '../../../domain/consent.js';
import { FENCE_NAME_MAX, FENCE_TYPES, LOAN_ID, RADIUS_MAX_M, RADIUS_MIN_M, type RequestedFenceType } from '../../domain/geofence.js';
import { ISOCHRONE_MAX_MINUTES, ISOCHRONE_MIN_MINUTES } from '../../../../../routing/src/index.js';
import { GEOJSON_POLYGON_SCHEMA, POINT_SCHEMA } from '../../geometry.schemas.js';

/** Printable text: no control characters (names end up in webhook payloads and dashboards). */
const NAME = /^[^\p{Cc}]*$/u;

/** POST /v2/geofence/create. The geometry fields are validated by the domain (domain/geofence.ts), which names the failing field. */
export class CreateGeofenceRequest {
  @ApiProperty({ enum: FENCE_TYPES, description: 'circle (center + radius_m), polygon (polygon) or isochrone (center + minutes + mode: the area reachable on the road network)' })
  @IsIn(FENCE_TYPES, { message: `fence_type must be one of ${FENCE_TYPES.join(', ')}` })
  fence_type: RequestedFenceType;

  @ApiPropertyOptional({ ...POINT_SCHEMA, description: 'Circle and isochrone fences: the centre {lat, lng}' })
  @IsOptional()
  @IsObject({ message: 'center must be an object {lat, lng}' })
  center?: unknown;

  @ApiPropertyOptional({ description: 'Circle fences: the radius in metres; a point at exactly this distance is inside', minimum: RADIUS_MIN_M, maximum: RADIUS_MAX_M, example: 250 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'radius_m must be a number' })
  radius_m?: number;

  @ApiPropertyOptional({ description: 'Isochrone fences: the travel time from the centre, in minutes', minimum: ISOCHRONE_MIN_MINUTES, maximum: ISOCHRONE_MAX_MINUTES, example: 10 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'minutes must be a number' })
  minutes?: number;

  @ApiPropertyOptional({ description: 'Isochrone fences: driving (default), motor_scooter (okada), bicycle or walking', example: 'okada' })
  @IsOptional()
  @IsString({ message: 'mode must be a string' })
  mode?: string;

  @ApiPropertyOptional({ ...GEOJSON_POLYGON_SCHEMA })
  @IsOptional()
  @IsObject({ message: 'polygon must be a GeoJSON Polygon object' })
  polygon?: unknown;

  @ApiPropertyOptional({
    description: "Your id of the one customer the fence applies to; absent or null: every customer of your account (each customer's pings are checked against it)",
    type: String,
    nullable: true,
    pattern: CUSTOMER_ID.source,
    example: 'cust-0042',
  })
  @IsOptional()
  @Matches(CUSTOMER_ID, { message: CUSTOMER_ID_MESSAGE })
  customer_id?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Your loan reference, carried into geofence_breach events', pattern: LOAN_ID.source, example: 'loan-2024-118' })
  @IsOptional()
  @Matches(LOAN_ID, { message: callerIdMessage('loan_id') })
  loan_id?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'A label for people', maxLength: FENCE_NAME_MAX, example: 'Makola market stall' })
  @IsOptional()
  @IsString({ message: 'name must be a string' })
  @MinLength(1, { message: 'name must not be empty' })
  @MaxLength(FENCE_NAME_MAX, { message: `name must be at most ${FENCE_NAME_MAX} characters` })
  @Matches(NAME, { message: 'name must not contain control characters' })
  name?: string | null;
}
