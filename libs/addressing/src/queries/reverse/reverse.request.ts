import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNumber, IsOptional, Matches, Max, Min } from 'class-validator';
import { CALLER_ID, callerIdMessage } from '../../../../platform/src/index.js';
import { PROVENANCE_SOURCES, type ProvenanceSource } from '../../domain/provenance.js';
import { DEFAULT_ADDRESS_RESOLUTION } from '../../domain/hexcode.js';

/** An empty query value stays a string (and fails), where Number('') would quietly be 0. */
const toNumber = () => Transform(({ value }) => (typeof value === 'string' && value.trim() !== '' ? Number(value) : value));

/** GET /v2/reverse. */
export class ReverseRequest {
  @ApiProperty({ description: 'Latitude, decimal degrees (WGS 84)', minimum: -90, maximum: 90, example: 5.6037 })
  @toNumber()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lat must be a number from -90 to 90' })
  @Min(-90, { message: 'lat must be a number from -90 to 90' })
  @Max(90, { message: 'lat must be a number from -90 to 90' })
  lat: number;

  @ApiProperty({ description: 'Longitude, decimal degrees (WGS 84)', minimum: -180, maximum: 180, example: -0.187 })
  @toNumber()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lng must be a number from -180 to 180' })
  @Min(-180, { message: 'lng must be a number from -180 to 180' })
  @Max(180, { message: 'lng must be a number from -180 to 180' })
  lng: number;

  @ApiPropertyOptional({ description: 'H3 resolution of the cell to code; 13 (about 44 m²) is the address resolution', minimum: 0, maximum: 15, default: DEFAULT_ADDRESS_RESOLUTION })
  @IsOptional()
  @toNumber()
  @IsInt({ message: 'resolution must be an integer from 0 to 15' })
  @Min(0, { message: 'resolution must be an integer from 0 to 15' })
  @Max(15, { message: 'resolution must be an integer from 0 to 15' })
  resolution?: number;

  @ApiPropertyOptional({ description: 'How you got the point (interface.md, "Provenance object")', enum: PROVENANCE_SOURCES, default: 'device_gps' })
  @IsOptional()
  @IsIn(PROVENANCE_SOURCES, { message: `source must be one of ${PROVENANCE_SOURCES.join(', ')}` })
  source?: ProvenanceSource;

  @ApiPropertyOptional({
    description: 'Required with `source` user_confirmed or agent_verified: your id of the account (customer) or field agent who confirmed the point; it is recorded in the provenance as `confirmed_by`',
    pattern: CALLER_ID.source,
    example: 'agent-17',
  })
  @IsOptional()
  @Matches(CALLER_ID, { message: callerIdMessage('confirmed_by') })
  confirmed_by?: string;

  @ApiPropertyOptional({ description: 'Accuracy of the point you sent, in metres (a GPS fix’s horizontal accuracy)', minimum: 0, maximum: 100000 })
  @IsOptional()
  @toNumber()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'accuracy_m must be a number of metres from 0 to 100000' })
  @Min(0, { message: 'accuracy_m must be a number of metres from 0 to 100000' })
  @Max(100_000, { message: 'accuracy_m must be a number of metres from 0 to 100000' })
  accuracy_m?: number;
}
