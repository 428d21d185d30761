import { Controller, Delete, HttpCode, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { callingKey } from '../../authentication/calling-key.js';
import { RevokedKeySchema } from './revoke-key.answer.js';
import { RevokeKeyCommand } from '../../keys/key-commands.js';

@ApiTags('keys')
@ApiSecurity('api_key')
@Controller('v2/me')
export class RevokeKeyController {
  constructor(private readonly commands: CommandBus) {}

  @Delete('key')
  @HttpCode(200)
  @ApiOperation({ summary: 'Revoke the calling key at once' })
  @ApiAnswer(RevokedKeySchema)
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: another request rotated or revoked the key at the same moment' })
  async revoke(@Req() request: FastifyRequest): Promise<AnswerOf<typeof RevokedKeySchema>> {
    const record = callingKey(request);
    await this.commands.execute(new RevokeKeyCommand({ type: 'RevokeApiKey', data: { key_id: record.key_id, reason: 'deleted', replaced_by: null } }));
    return { key_prefix: record.key_prefix, revoked: true as const };
  }
}
