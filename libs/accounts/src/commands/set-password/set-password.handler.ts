import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, CONFIG, type Clock, type Config } from '../../../../platform/src/index.js';
import { assertAcceptablePassword, PasswordHasher } from '../../credentials/index.js';
import { AccountKeyRequiredError } from '../../domain/errors.js';
import { userIdForAccount } from '../../users/domain/user.js';
import { SignInEmailTakenError } from '../../users/errors.js';
import { PersonalTokens } from '../../users/personal-tokens.js';
import { SignInDirectory } from '../../users/sign-in-directory.js';
import { Users } from '../../users/users.js';
import { SetPasswordCommand, type SetPasswordResult } from './set-password.command.js';

/**
 * Attaches a password to the caller's user, or changes it after verifying the
 * current one (interface.md, "Authentication" 5). A change signs the user out
 * everywhere else: the user's other personal tokens are revoked, as after a
 * reset, since the usual reason to change a password is that someone else may
 * know it.
 */
@CommandHandler(SetPasswordCommand)
export class SetPasswordHandler implements ICommandHandler<SetPasswordCommand> {
  constructor(
    private readonly users: Users,
    private readonly directory: SignInDirectory,
    private readonly hasher: PasswordHasher,
    private readonly tokens: PersonalTokens,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async execute({ key, password, currentPassword }: SetPasswordCommand): Promise<SetPasswordResult> {
    // Account keys, and personal tokens (scoped to that account's user); never a legacy key.
    if (!key.account_id || key.kind === 'legacy') throw new AccountKeyRequiredError();
    const accountId = key.account_id;
    await this.directory.waitFor(BigInt(key.record_id), this.config.projectionWaitMs);
    const account = this.directory.account(accountId);
    if (!account) throw new AccountKeyRequiredError();
    if (!this.directory.signsInWithItsEmail(accountId)) throw new SignInEmailTakenError();
    assertAcceptablePassword(password, { userInputs: [key.name, account.email] });

    const userId = userIdForAccount(accountId);
    const loaded = await this.users.load(userId);
    const stored = loaded.state.status === 'registered' ? loaded.state.password : null;
    let current: 'absent' | 'verified' | 'wrong' = 'absent';
    if (stored && currentPassword !== undefined) current = (await this.hasher.verify(currentPassword, stored.hash)) ? 'verified' : 'wrong';
    // Only the bcrypt hash is stored; the decider refuses a change without the right current password.
    const passwordHash = stored && current !== 'verified' ? '' : await this.hasher.hash(password);
    const decided = await this.users.decideOn(userId, loaded, {
      type: 'SetPassword',
      identity: { user_id: userId, account_id: accountId, email: account.email },
      password_hash: passwordHash,
      current_password: current,
      now: this.clock.now(),
    });
    const changed = decided.events.some((event) => event.type === 'UserPasswordChanged');
    const revoked = changed ? await this.tokens.revokeAll(userId, decided.position!, key.kind === 'personal' ? key.key_id : undefined) : 0;
    const state = decided.state.status === 'registered' ? decided.state : undefined;
    return {
      user_id: userId,
      account_id: accountId,
      email: account.email,
      password: changed ? 'changed' : 'attached',
      password_set_at: state?.password?.set_at ?? this.clock.now().toISOString(),
      personal_tokens_revoked: revoked,
    };
  }
}
