import { Body, Controller, Param, Put, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, callingAccount, type AnswerOf } from '../../../../platform/src/index.js';
import { noticeDigest, registeredNotice } from '../../domain/consent-notice.js';
import { RegisterConsentNoticeCommand } from './register-consent-notice.handler.js';
import { RegisterConsentNoticeRequest } from './register-consent-notice.request.js';
import { ConsentNoticeRegistrationSchema } from './register-consent-notice.answer.js';

/** docs/adr/0059: an account registers each notice text once; grants then name its version. */
@ApiTags('monitoring')
@ApiSecurity('api_key')
@Controller('v2/consent/notices')
export class RegisterConsentNoticeController {
  constructor(private readonly commands: CommandBus) {}

  @Put(':version')
  @AccountOnly()
  @ApiOperation({
    summary: 'Register a consent notice: one language of a version, with its exact text',
    description:
      'The service computes the SHA-256 of the text’s UTF-8 bytes and keeps the text once, in this registration: grants may then name the notice by `{version}` (and `language`, when the version has several) and the hash is filled in; receipts carry the hash, never the text. ' +
      'A registered notice never changes: registering the same text again answers `outcome: unchanged`, another text under the same version and language is refused (register it as a new version). At most 100 version and language pairs per account; texts up to 64 KiB.',
  })
  @ApiAnswer(ConsentNoticeRegistrationSchema, { requestExample: { language: 'en-GH', text: 'Ama Lending will use your phone’s location to support the collection of your loan until you revoke your consent.' } })
  @ApiResponse({ status: 400, description: 'INVALID_PARAM (field `version`, `language` or `text`: empty, over 64 KiB of UTF-8, or not Unicode text)' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED: notices belong to an account' })
  @ApiResponse({
    status: 409,
    description: 'NOTICE_VERSION_EXISTS (field `text`): this version and language are registered with another text; NOTICE_LIMIT_REACHED: the account holds 100 notices; CONCURRENCY_CONFLICT: registrations kept racing, retry',
  })
  async register(@Req() request: FastifyRequest, @Param('version') version: string, @Body() body: RegisterConsentNoticeRequest): Promise<AnswerOf<typeof ConsentNoticeRegistrationSchema>> {
    const accountId = callingAccount(request);
    const digest = noticeDigest(body.text, 'text');
    const { state, events } = await this.commands.execute(
      new RegisterConsentNoticeCommand({ type: 'RegisterConsentNotice', account_id: accountId, version, language: body.language, text: body.text, ...digest }),
    );
    const notice = registeredNotice(state, version, body.language);
    if (!notice) throw new Error('a registration left its notice unregistered');
    return { ...notice, outcome: events.length > 0 ? 'registered' : 'unchanged' };
  }
}
