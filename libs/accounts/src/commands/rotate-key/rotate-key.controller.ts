import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiKeys } from '../../api-keys.js';
import { callingKey } from '../../authentication/calling-key.js';
import { keyRecordView } from '../../key-record.view.js';

@ApiTags('keys')
@ApiSecurity('api_key')
@Controller('v2/me')
export class RotateKeyController {
  constructor(
    private readonly keys: ApiKeys,
  ) {}

  @Post('rotate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Issue a new key and revoke the calling one at once; the new key is returned once' })
  async rotate(@Req() request: FastifyRequest) {
    const { key, record } = await this.keys.rotate(callingKey(request));
    return keyRecordView(record, key);
  }
}
