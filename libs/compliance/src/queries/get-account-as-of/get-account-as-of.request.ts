import { ApiProperty } from '@nestjs/swagger';
import { IsISO8601 } from 'class-validator';

export class GetAccountAsOfRequest {
  @ApiProperty({ description: 'The instant to reconstruct (ISO 8601)', example: '2026-03-03T14:00:00Z' })
  @IsISO8601({ strict: true })
  at!: string;
}
