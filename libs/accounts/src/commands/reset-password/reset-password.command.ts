import { Command } from '@nestjs/cqrs';

export interface PasswordResetResult {
  user_id: string;
  account_id: string;
  password_set_at: string;
  /** Personal tokens issued under the old password, now revoked. */
  personal_tokens_revoked: number;
}

export class ResetPasswordCommand extends Command<PasswordResetResult> {
  constructor(
    readonly token: string,
    readonly password: string,
  ) {
    super();
  }
}
