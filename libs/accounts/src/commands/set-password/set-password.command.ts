import { Command } from '@nestjs/cqrs';
import type { KeyRecord } from '../../authentication/key-directory.js';

export interface SetPasswordResult {
  user_id: string;
  account_id: string;
  email: string;
  /** `attached`: the user had no password; `changed`: the current one was verified and replaced. */
  password: 'attached' | 'changed';
  password_set_at: string;
  /** Personal tokens revoked by a change (the calling one, if personal, is kept). */
  personal_tokens_revoked: number;
}

export class SetPasswordCommand extends Command<SetPasswordResult> {
  constructor(
    readonly key: KeyRecord,
    readonly password: string,
    readonly currentPassword: string | undefined,
  ) {
    super();
  }
}
