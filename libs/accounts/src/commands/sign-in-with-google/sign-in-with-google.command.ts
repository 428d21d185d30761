import { Command } from '@nestjs/cqrs';
import type { PersonalTokenView } from '../../users/personal-tokens.js';

export class SignInWithGoogleCommand extends Command<PersonalTokenView> {
  constructor(readonly idToken: string) {
    super();
  }
}
