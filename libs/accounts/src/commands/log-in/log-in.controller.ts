import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { ApiAnswer, type AnswerOf } from '../../../../platform/src/index.js';
import { PersonalTokenSchema } from '../../personal-token.answer.js';
import { LogInCommand } from './log-in.handler.js';
import { LogInRequest } from './log-in.request.js';

@ApiTags('auth')
@ApiSecurity('api_key')
@Controller('v2/auth')
export class LogInController {
  constructor(private readonly commands: CommandBus) {}

  @Post('login')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Sign in with e-mail and password; answers a personal token',
    description: [
      'Any valid key may call it (interface.md: "Key by the general rule").',
      'The token is an X-API-Key value scoped to the user: send it in X-API-Key like a key. It carries the account\'s tier and expires after PERSONAL_TOKEN_TTL_DAYS (default 30);',
      'DELETE /v2/me/key with it signs out, and a password reset revokes it.',
      'A wrong address and a wrong password get the same 401 INVALID_CREDENTIALS; 10 failures per address, or 50 failed password checks per client IP, in 15 minutes give 429 RATE_LIMITED with Retry-After.',
    ].join(' '),
  })
  @ApiAnswer(PersonalTokenSchema, { requestExample: { email: 'ops@kumasi-microcredit.example.com.gh', password: 'Adinkra-Sankofa-2026' } })
  @ApiResponse({ status: 401, description: 'INVALID_CREDENTIALS: unknown address, no password, or a wrong one (one answer for all three)' })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: too many failed sign-ins for this address or from this IP (Retry-After), or the calling key\'s quota' })
  logIn(@Req() request: FastifyRequest, @Body() body: LogInRequest): Promise<AnswerOf<typeof PersonalTokenSchema>> {
    return this.commands.execute(new LogInCommand({ email: body.email, password: body.password }, request.ip));
  }
}
