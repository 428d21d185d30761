import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { command, CONFIG, PipelineCommand, PipelineHandler, type Config, type AnswerOf } from '../../../../platform/src/index.js';
import type { KeyRecord } from '../../public/key-directory.js';
import { assertAcceptablePassword, PasswordHasher } from '../../credentials/index.js';
import { AccountKeyRequiredError } from '../../domain/errors.js';
import { userDecider, userIdForAccount, userStream, type SetPassword, type UserEvent, type UserState } from '../../domain/user.js';
import { InvalidCurrentPasswordError } from '../../domain/user-errors.js';
import { attemptCounters, Attempts } from '../../throttling/attempts.js';
import { SignInEmailTakenError } from '../../users/errors.js';
import { PersonalTokens } from '../../users/personal-tokens.js';
import { SignInDirectory } from '../../users/sign-in-directory.js';
import type { SetPasswordAnswerSchema } from './set-password.answer.js';

/** The command as the handler gives it: the passwords in clear, which `prepare` turns into the hash and the verdict. */
export interface SetPasswordInput extends SetPassword {
  secrets?: { password: string; current_password?: string };
}

/**
 * Attaches or changes the user's password. `prepare` checks `current_password`
 * against the hash of the stream as read and hashes the new password, both off
 * the event loop; the decider then rules on that verdict.
 */
export const setPassword = command<SetPasswordInput, UserState, UserEvent, { hasher: PasswordHasher }>({
  name: 'accounts.set-password',
  stream: (input) => userStream(input.identity.user_id),
  decider: userDecider,
  inject: { hasher: PasswordHasher },
  async prepare({ secrets, ...input }, { state }, { hasher }) {
    if (!secrets) throw new Error('set-password needs the passwords');
    const stored = state.status === 'registered' ? state.password : null;
    let current: 'absent' | 'verified' | 'wrong' = 'absent';
    if (stored && secrets.current_password !== undefined) current = (await hasher.verify(secrets.current_password, stored.hash)) ? 'verified' : 'wrong';
    // A change refused anyway is not worth a hash.
    const password_hash = stored && current !== 'verified' ? '' : await hasher.hash(secrets.password);
    return { ...input, checked: { password_hash, current_password: current } };
  },
  // The verdict on current_password was checked outside the decider, against the stream as read: on any other state it
  // proves nothing, so a conflict is answered 409 and never decided again.
  onConflict: { retry: 0 },
  // A change signs the user out elsewhere: the sign-in directory must list every token issued before it.
  awaits: ['sign_in_directory'],
});

/** The user's stream step of the process below (named apart from it: `SetPasswordCommand` is the slice's process). */
export class SetPasswordStepCommand extends PipelineCommand<SetPasswordInput, UserState, UserEvent> {}

@CommandHandler(SetPasswordStepCommand)
export class SetPasswordStepHandler extends PipelineHandler<SetPasswordInput, UserState, UserEvent, { hasher: PasswordHasher }> {
  protected readonly definition = setPassword;
}

export type SetPasswordResult = AnswerOf<typeof SetPasswordAnswerSchema>;

/** POST /v2/me/password, from the calling key and client IP. */
export class SetPasswordCommand extends Command<SetPasswordResult> {
  constructor(
    readonly key: KeyRecord,
    readonly clientIp: string,
    readonly password: string,
    readonly currentPassword: string | undefined,
  ) {
    super();
  }
}

/**
 * Attaches a password to the caller's user, or changes it after verifying the
 * current one (interface.md, "Authentication" 5). A change signs the user out
 * everywhere else: the user's other personal tokens are revoked, as after a
 * reset, since the usual reason to change a password is that someone else may
 * know it. Wrong current passwords are throttled per account and per client IP.
 */
@CommandHandler(SetPasswordCommand)
export class SetPasswordHandler implements ICommandHandler<SetPasswordCommand> {
  constructor(
    private readonly commands: CommandBus,
    private readonly directory: SignInDirectory,
    private readonly tokens: PersonalTokens,
    private readonly attempts: Attempts,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  async execute({ key, clientIp, password, currentPassword }: SetPasswordCommand): Promise<SetPasswordResult> {
    // Account keys, and personal tokens (scoped to that account's user); never a legacy key.
    if (!key.account_id || key.kind === 'legacy') throw new AccountKeyRequiredError();
    const accountId = key.account_id;
    // The sign-in directory follows the same log as the key directory that found this key; let it reach the key's issue.
    await this.directory.waitFor(BigInt(key.record_id), this.config.projectionWaitMs);
    const account = this.directory.account(accountId);
    if (!account) throw new AccountKeyRequiredError();
    if (!this.directory.signsInWithItsEmail(accountId)) throw new SignInEmailTakenError();
    assertAcceptablePassword(password, { userInputs: [key.name, account.email] });

    const counters = [attemptCounters.passwordChecksOf(accountId), attemptCounters.passwordChecksFrom(clientIp)];
    await this.attempts.check(...counters);
    const userId = userIdForAccount(accountId);
    let result;
    try {
      result = await this.commands.execute(
        new SetPasswordStepCommand({
          type: 'SetPassword',
          identity: { user_id: userId, account_id: accountId, email: account.email },
          secrets: { password, current_password: currentPassword },
        }),
      );
    } catch (error) {
      if (error instanceof InvalidCurrentPasswordError) await this.attempts.failed(...counters);
      throw error;
    }
    const changed = result.events.some((event) => event.type === 'UserPasswordChanged');
    const revoked = changed ? await this.tokens.revokeAll(userId, key.kind === 'personal' ? key.key_id : undefined) : 0;
    const stored = result.state.status === 'registered' ? result.state.password : null;
    if (!stored) throw new Error(`user ${userId} has no password after setting one`);
    return {
      user_id: userId,
      account_id: accountId,
      email: account.email,
      password: changed ? 'changed' : 'attached',
      password_set_at: stored.set_at,
      personal_tokens_revoked: revoked,
    };
  }
}
