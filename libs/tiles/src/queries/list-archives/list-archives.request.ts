import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Matches, Max, Min } from 'class-validator';

export class ListArchivesRequest {
  @ApiPropertyOptional({ minimum: 1, maximum: 500, default: 100 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(500)
  limit?: number;

  @ApiPropertyOptional({ description: 'next_cursor of the previous page (the last name it listed)' })
  @IsOptional()
  @Matches(/^[A-Za-z0-9_-]{1,128}$/, { message: 'cursor must be the next_cursor of a previous page' })
  cursor?: string;
}
