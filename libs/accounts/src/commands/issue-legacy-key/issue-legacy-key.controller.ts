import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { AdminOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { ApiKeyRecordSchema } from '../../key-record.answer.js';
import { keyRecordView } from '../../key-record.view.js';
import { IssueLegacyKeyCommand } from './issue-legacy-key.handler.js';
import { IssueLegacyKeyRequest } from './issue-legacy-key.request.js';

@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/keys')
export class IssueLegacyKeyController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @HttpCode(201)
  @AdminOnly()
  @ApiOperation({ summary: 'Issue a legacy key without an account (returned once)' })
  @ApiAnswer(ApiKeyRecordSchema, { status: 201, requestExample: { name: 'Accra courier integration (legacy)', tier: 'pro' } })
  @ApiResponse({ status: 403, description: 'ADMIN_KEY_REQUIRED: the deployment has no operator key configured' })
  async issue(@Body() request: IssueLegacyKeyRequest): Promise<AnswerOf<typeof ApiKeyRecordSchema>> {
    const { key, record } = await this.commands.execute(new IssueLegacyKeyCommand({ name: request.name, tier: request.tier }));
    return keyRecordView(record, key);
  }
}
