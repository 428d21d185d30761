import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { AdminOnly, CommandPipeline } from '../../../../platform/src/index.js';
import { KeyDirectory } from '../../authentication/key-directory.js';
import { keyRecordView } from '../../key-record.view.js';
import { issueLegacyKey } from './issue-legacy-key.handler.js';
import { IssueLegacyKeyRequest } from './issue-legacy-key.request.js';

@ApiTags('admin')
@ApiSecurity('api_key')
@Controller('v2/admin/keys')
export class IssueLegacyKeyController {
  constructor(
    private readonly commands: CommandPipeline,
    private readonly directory: KeyDirectory,
  ) {}

  @Post()
  @HttpCode(201)
  @AdminOnly()
  @ApiOperation({ summary: 'Issue a legacy key without an account (returned once)' })
  async issue(@Body() request: IssueLegacyKeyRequest) {
    const { key, record } = await issueLegacyKey(this.commands, this.directory, request);
    return keyRecordView(record, key);
  }
}
