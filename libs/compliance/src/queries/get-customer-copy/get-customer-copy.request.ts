import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { CALLER_ID, CUSTOMER_ID_MESSAGE } from '../../../../platform/src/index.js';

export class GetCustomerCopyRequest {
  @ApiProperty({ description: 'Your own identifier of the customer (data subject) who asked for their copy', pattern: CALLER_ID.source, minLength: 1, maxLength: 128, example: 'cust-0042' })
  @Matches(CALLER_ID, { message: CUSTOMER_ID_MESSAGE })
  customer_id!: string;

  @ApiPropertyOptional({ description: "The previous page's next_cursor: the location history continues from there" })
  @IsOptional()
  @Matches(/^\d{1,19}$/)
  cursor?: string;

  @ApiPropertyOptional({ description: "The previous page's verifications.next_cursor: the verifications and certificates continue from there" })
  @IsOptional()
  @Matches(/^\d{1,19}$/)
  verifications_cursor?: string;

  @ApiPropertyOptional({ description: "The previous page's webhook_deliveries.next_cursor: the deliveries continue from there", maxLength: 1024 })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  deliveries_cursor?: string;

  @ApiPropertyOptional({ description: 'Records per page in each paginated section: location history, verifications, webhook deliveries (default 500, at most 1000)', minimum: 1, maximum: 1000 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  limit?: number;
}
