import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsInt, IsNumber, IsOptional, Matches, Max, Min } from 'class-validator';
import { CALLER_ID, callerIdMessage, Latitude, Longitude, ToNumber } from '../../../../platform/src/index.js';
import { PROVENANCE_SOURCES, type ProvenanceSource } from '../../domain/provenance.js';
import { DEFAULT_ADDRESS_RESOLUTION } from '../../domain/hexcode.js';

/** GET /v2/reverse. */
export class ReverseRequest {
  @Latitude({ query: 'strict', rangeMessage: 'always', description: 'Latitude, decimal degrees (WGS 84)', example: 5.6037 })
  lat: number;

  @Longitude({ query: 'strict', rangeMessage: 'always', description: 'Longitude, decimal degrees (WGS 84)', example: -0.187 })
  lng: number;

  @ApiPropertyOptional({ description: 'H3 resolution of the cell to code; 13 (about 44 m²) is the address resolution', minimum: 0, maximum: 15, default: DEFAULT_ADDRESS_RESOLUTION })
  @IsOptional()
  @ToNumber()
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
  @ToNumber()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'accuracy_m must be a number of metres from 0 to 100000' })
  @Min(0, { message: 'accuracy_m must be a number of metres from 0 to 100000' })
  @Max(100_000, { message: 'accuracy_m must be a number of metres from 0 to 100000' })
  accuracy_m?: number;
}
