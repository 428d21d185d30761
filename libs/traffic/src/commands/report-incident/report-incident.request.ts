import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsLatitude, IsLongitude, IsNumber, IsOptional, IsString, MaxLength } from 'class-validator';
import { HAZARD_KINDS, HAZARD_NOTE_MAX } from '../../domain/hazard.js';

export class ReportIncidentRequest {
  @ApiProperty({ enum: HAZARD_KINDS })
  @IsIn(HAZARD_KINDS, { message: `kind must be one of ${HAZARD_KINDS.join(', ')}` })
  kind!: string;

  @ApiProperty({ example: 5.6037 })
  @IsNumber({}, { message: 'lat must be a number in [-90, 90]' })
  @IsLatitude({ message: 'lat must be a number in [-90, 90]' })
  lat!: number;

  @ApiProperty({ example: -0.187 })
  @IsNumber({}, { message: 'lng must be a number in [-180, 180]' })
  @IsLongitude({ message: 'lng must be a number in [-180, 180]' })
  lng!: number;

  @ApiPropertyOptional({ maxLength: HAZARD_NOTE_MAX })
  @IsOptional()
  @IsString({ message: 'note must be a string' })
  @MaxLength(HAZARD_NOTE_MAX, { message: `note may be at most ${HAZARD_NOTE_MAX} characters` })
  note?: string;
}
