import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { PasswordResetRequestedSchema } from './request-password-reset.answer.js';
import { RequestPasswordResetCommand } from './request-password-reset.handler.js';
import { RequestPasswordResetRequest } from './request-password-reset.request.js';

@ApiTags('auth')
@ApiSecurity('api_key')
@Controller('v2/auth')
export class RequestPasswordResetController {
  constructor(private readonly commands: CommandBus) {}

  @Post('forgot-password')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Ask for a password-reset token by e-mail',
    description: [
      'Always 202 with the same body, at once, whether or not the address has an account.',
      'When the address signs in to a user with a password, a one-time token valid for 30 minutes is mailed to it (at most 3 unexpired tokens per user; further requests mail nothing).',
      'Only the token\'s SHA-256 is stored. Spend it with POST /v2/auth/reset-password.',
    ].join(' '),
  })
  @ApiAnswer(PasswordResetRequestedSchema, { status: 202, description: '`data` is a PasswordResetRequested, identical for every address', requestExample: { email: 'ops@kumasi-microcredit.example.com.gh' } })
  requestReset(@Body() body: RequestPasswordResetRequest): Promise<AnswerOf<typeof PasswordResetRequestedSchema>> {
    return this.commands.execute(new RequestPasswordResetCommand(body.email));
  }
}
