import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { CommandBus } from '@nestjs/cqrs';
import { ApiAnswer, BodyBudget, Public, type AnswerOf } from '../../../../platform/src/index.js';
import { ApiKeyRecordSchema } from '../../key-record.answer.js';
import { SignUpCommand } from './sign-up.handler.js';
import { SignUpRequest } from './sign-up.request.js';

@ApiTags('keys')
@Controller('v2/self/signup')
export class SignUpController {
  constructor(private readonly commands: CommandBus) {}

  // name and email: a public route, so a small budget refused while parsing (issue 31, item 1; ADR 0034).
  @BodyBudget({ maxBytes: 4096, maxValues: 8, maxDepth: 1 })
  @Post()
  @Public()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Free-tier key (100 requests per rolling 24 h); the key is returned once and e-mailed',
    description: 'Throttled per client IP (SIGNUP_LIMIT_PER_IP_PER_HOUR, default 20 in a rolling hour) and per e-mail address (3 in a rolling hour).',
  })
  @ApiAnswer(ApiKeyRecordSchema, { status: 201, requestExample: { name: 'Ama Mensah', email: 'ama.mensah@example.com.gh' } })
  @ApiResponse({ status: 429, description: 'RATE_LIMITED: too many signups from this IP or with this address; Retry-After says when to try again' })
  create(@Body() request: SignUpRequest): Promise<AnswerOf<typeof ApiKeyRecordSchema>> {
    return this.commands.execute(new SignUpCommand({ name: request.name, email: request.email }));
  }
}
