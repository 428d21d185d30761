import { Command } from '@nestjs/cqrs';

/** The one answer, whatever the address. */
export interface PasswordResetRequested {
  accepted: true;
  message: string;
}

export class RequestPasswordResetCommand extends Command<PasswordResetRequested> {
  constructor(readonly email: string) {
    super();
  }
}
