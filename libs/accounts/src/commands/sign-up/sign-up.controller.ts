import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Public } from '../../../../platform/src/index.js';
import { SignUpCommand } from './sign-up.command.js';
import { SignUpRequest } from './sign-up.request.js';

@ApiTags('keys')
@Controller('v2/self/signup')
export class SignUpController {
  constructor(private readonly commands: CommandBus) {}

  @Post()
  @Public()
  @HttpCode(201)
  @ApiOperation({ summary: 'Free-tier key (100 requests per rolling 24 h); the key is returned once and e-mailed' })
  signUp(@Body() request: SignUpRequest) {
    return this.commands.execute(new SignUpCommand(request.name, request.email));
  }
}
