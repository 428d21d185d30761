import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

/** GET /v2/route/static?from=lat,lng&to=lat,lng. */
export class StaticRouteRequest {
  @ApiProperty({ description: 'Start "lat,lng"', example: '5.556,-0.233' })
  @IsString({ message: 'from is required: "lat,lng"' })
  from: string;

  @ApiProperty({ description: 'Destination "lat,lng"', example: '5.57,-0.18' })
  @IsString({ message: 'to is required: "lat,lng"' })
  to: string;

  @ApiPropertyOptional({ description: 'Travel mode (as POST /v2/route; default driving)', example: 'okada' })
  @IsOptional()
  @IsString({ message: 'mode must be a string' })
  @MaxLength(40)
  mode?: string;
}
