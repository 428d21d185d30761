import { ApiProperty } from '@nestjs/swagger';
import { IsNumber, Max, Min } from 'class-validator';

/** A point `{lat, lng}` in a JSON body (decisions.md, "Conventions"). */
export class PointRequest {
  @ApiProperty({ minimum: -90, maximum: 90, example: 5.5502 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lat must be a number' })
  @Min(-90)
  @Max(90)
  lat: number;

  @ApiProperty({ minimum: -180, maximum: 180, example: -0.2077 })
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'lng must be a number' })
  @Min(-180)
  @Max(180)
  lng: number;
}
