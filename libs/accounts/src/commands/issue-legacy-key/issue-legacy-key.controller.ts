import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiProperty, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsIn, IsString, Length } from 'class-validator';
import { AdminOnly } from '../../../../platform/src/index.js';
import { ApiKeys } from '../../api-keys.js';
import { TIERS, type Tier } from '../../domain/api-key.js';
import { keyRecordView } from '../../key-record.view.js';

export class IssueLegacyKeyRequest {
  @ApiProperty({ maxLength: 100 })
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @Length(1, 100)
  name: string;

  @ApiProperty({ enum: TIERS })
  @IsIn(TIERS as Tier[])
  tier: Tier;
}

/** A key without an account identity (decisions.md); account-scoped endpoints refuse it with ACCOUNT_KEY_REQUIRED. */
@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/keys')
export class IssueLegacyKeyController {
  constructor(private readonly keys: ApiKeys) {}

  @Post()
  @HttpCode(201)
  @AdminOnly()
  @ApiOperation({ summary: 'Issue a legacy key without an account (returned once)' })
  async issue(@Body() request: IssueLegacyKeyRequest) {
    const { key, record } = await this.keys.issue({
      kind: 'legacy',
      account_id: null,
      name: request.name,
      email: null,
      tier: request.tier,
      expires_at: null,
      rotated_from: null,
    });
    return keyRecordView(record, key);
  }
}
