import { Command } from '@nestjs/cqrs';
import type { PersonalTokenView } from '../../users/personal-tokens.js';

export class LogInCommand extends Command<PersonalTokenView> {
  constructor(
    readonly email: string,
    readonly password: string,
  ) {
    super();
  }
}
