import { ApiProperty } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';

/** POST /v2/admin/accounts/{accountId}/banking. */
export class SetBankingAccessRequest {
  @ApiProperty()
  @IsBoolean()
  enabled: boolean;
}
