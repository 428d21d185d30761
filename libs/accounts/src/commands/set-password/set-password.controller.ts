import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { AccountOnly, ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { callingKey } from '../../authentication/calling-key.js';
import { SetPasswordAnswerSchema } from './set-password.answer.js';
import { SetPasswordCommand } from './set-password.handler.js';
import { SetPasswordRequest } from './set-password.request.js';

@ApiTags('auth')
@ApiSecurity('api_key')
@Controller('v2/me')
export class SetPasswordController {
  constructor(private readonly commands: CommandBus) {}

  @Post('password')
  @AccountOnly()
  @HttpCode(200)
  @ApiOperation({
    summary: "Attach a password to the caller's user, or change it",
    description: [
      'The user is the person behind the calling key\'s account; they sign in with the account\'s e-mail address (POST /v2/auth/login).',
      'Needs an account key or a personal token: a legacy or the operator key gets 403 ACCOUNT_KEY_REQUIRED.',
      'The first password is attached without more; changing it needs `current_password`, and revokes the user\'s other personal tokens.',
      'Only a scrypt hash is stored. 10 wrong current passwords per account, or 50 failed password checks per client IP, in 15 minutes give 429 RATE_LIMITED.',
    ].join(' '),
  })
  @ApiAnswer(SetPasswordAnswerSchema, { requestExample: { password: 'Kente-Weaver-Bonwire-7', current_password: 'Adinkra-Sankofa-2026' } })
  @ApiResponse({ status: 400, description: 'WEAK_PASSWORD (field `password`: shorter than 8, common, or easy to guess); CURRENT_PASSWORD_REQUIRED or INVALID_CURRENT_PASSWORD (field `current_password`); INVALID_PARAM' })
  @ApiResponse({ status: 403, description: 'ACCOUNT_KEY_REQUIRED: a legacy key or the operator key' })
  @ApiResponse({ status: 409, description: 'EMAIL_IN_USE: another account signed up with this address first and signs in with it; CONCURRENCY_CONFLICT: the password changed at the same moment, try again' })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: too many wrong passwords (Retry-After), or the calling key\'s quota' })
  setPassword(@Req() request: FastifyRequest, @Body() body: SetPasswordRequest): Promise<AnswerOf<typeof SetPasswordAnswerSchema>> {
    return this.commands.execute(new SetPasswordCommand(callingKey(request), request.ip, body.password, body.current_password));
  }
}
