import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsOptional, Max, Min } from 'class-validator';
import { MAX_ACCURACY_M } from '../../domain/position.js';

/** POST /v2/locator/checkin {lat, lng, accuracy_m?}. */
export class CheckInRequest {
  @ApiProperty({ example: 5.6037, minimum: -90, maximum: 90 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lat must be a number' })
  @Min(-90)
  @Max(90)
  lat: number;

  @ApiProperty({ example: -0.187, minimum: -180, maximum: 180 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lng must be a number' })
  @Min(-180)
  @Max(180)
  lng: number;

  @ApiPropertyOptional({ description: 'Horizontal accuracy of the fix in metres, as the device reports it', example: 12, minimum: 0, maximum: MAX_ACCURACY_M })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'accuracy_m must be a number' })
  @Min(0)
  @Max(MAX_ACCURACY_M)
  accuracy_m?: number;
}
