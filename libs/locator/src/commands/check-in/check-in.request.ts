import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsOptional, Max, Min } from 'class-validator';
import { Latitude, Longitude } from '../../../../platform/src/index.js';
import { MAX_ACCURACY_M } from '../../domain/position.js';

/** POST /v2/locator/checkin {lat, lng, accuracy_m?}. */
export class CheckInRequest {
  @Latitude({ example: 5.6037 })
  lat: number;

  @Longitude({ example: -0.187 })
  lng: number;

  @ApiPropertyOptional({ description: 'Horizontal accuracy of the fix in metres, as the device reports it', example: 12, minimum: 0, maximum: MAX_ACCURACY_M })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'accuracy_m must be a number' })
  @Min(0)
  @Max(MAX_ACCURACY_M)
  accuracy_m?: number;
}
