import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { PasswordResetAnswerSchema } from './reset-password.answer.js';
import { ResetPasswordCommand } from './reset-password.handler.js';
import { ResetPasswordRequest } from './reset-password.request.js';

@ApiTags('auth')
@ApiSecurity('api_key')
@Controller('v2/auth')
export class ResetPasswordController {
  constructor(private readonly commands: CommandBus) {}

  @Post('reset-password')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Set a new password with a mailed reset token',
    description: [
      'The token must be one mailed by POST /v2/auth/forgot-password, unused, and at most 30 minutes old; it works once.',
      'The new password follows the policy of POST /v2/me/password. A reset voids the user\'s other reset tokens and revokes every personal token issued under the old password.',
    ].join(' '),
  })
  @ApiAnswer(PasswordResetAnswerSchema, { requestExample: { token: 'rst_9d4f1a7c2e8b5d0f3a6c9e1b4d7f0a2c5e8b1d4f', password: 'Kente-Weaver-Bonwire-7' } })
  @ApiResponse({ status: 409, description: 'CONCURRENCY_CONFLICT: the user was changed by several requests at the same moment; try again' })
  @ApiResponse({ status: 400, description: 'INVALID_RESET_TOKEN (field `token`: malformed, unknown, used or expired); WEAK_PASSWORD (field `password`; the token stays unspent)' })
  resetPassword(@Body() body: ResetPasswordRequest): Promise<AnswerOf<typeof PasswordResetAnswerSchema>> {
    return this.commands.execute(new ResetPasswordCommand(body.token, body.password));
  }
}
