import { Controller, Delete, HttpCode, Req } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { ApiKeys } from '../../api-keys.js';
import { callingKey } from '../../authentication/calling-key.js';

@ApiTags('keys')
@ApiSecurity('api_key')
@Controller('v2/me')
export class RevokeKeyController {
  constructor(private readonly keys: ApiKeys) {}

  @Delete('key')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke the calling key at once' })
  async revoke(@Req() request: FastifyRequest) {
    const record = callingKey(request);
    await this.keys.revoke(record.key_id, 'deleted');
    return { key_prefix: record.key_prefix, revoked: true };
  }
}
