import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { ApiKeyRecordSchema } from '../../key-record.answer.js';
import { callingKey } from '../../authentication/calling-key.js';
import { keyRecordView } from '../../key-record.view.js';
import { RotateKeyCommand } from './rotate-key.handler.js';

@ApiTags('keys')
@ApiSecurity('api_key')
@Controller('v2/me')
export class RotateKeyController {
  constructor(private readonly commands: CommandBus) {}

  @Post('rotate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Issue a new key and revoke the calling one at once; the new key is returned once' })
  @ApiAnswer(ApiKeyRecordSchema, { description: '`data` is the ApiKeyRecord of the new key' })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: another request rotated or revoked the key at the same moment; no key was issued' })
  async rotate(@Req() request: FastifyRequest): Promise<AnswerOf<typeof ApiKeyRecordSchema>> {
    const { key, record } = await this.commands.execute(new RotateKeyCommand(callingKey(request)));
    return keyRecordView(record, key);
  }
}
