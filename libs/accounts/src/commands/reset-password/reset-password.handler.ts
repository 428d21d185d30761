import { Inject } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, type Clock } from '../../../../platform/src/index.js';
import { assertAcceptablePassword, hashResetToken, isWellFormedResetToken, PasswordHasher } from '../../credentials/index.js';
import { assertResetTokenUsable } from '../../users/domain/user.js';
import { InvalidResetTokenError } from '../../users/domain/errors.js';
import { PersonalTokens } from '../../users/personal-tokens.js';
import { SignInDirectory } from '../../users/sign-in-directory.js';
import { Users } from '../../users/users.js';
import { ResetPasswordCommand, type PasswordResetResult } from './reset-password.command.js';

/**
 * Spends a mailed reset token (interface.md, "Authentication" 5: one-time,
 * stored hashed, valid 30 minutes): the new password replaces the old one,
 * every other outstanding token of the user is void, and the personal tokens
 * issued under the old password are revoked.
 */
@CommandHandler(ResetPasswordCommand)
export class ResetPasswordHandler implements ICommandHandler<ResetPasswordCommand> {
  constructor(
    private readonly directory: SignInDirectory,
    private readonly users: Users,
    private readonly hasher: PasswordHasher,
    private readonly tokens: PersonalTokens,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ token, password }: ResetPasswordCommand): Promise<PasswordResetResult> {
    if (!isWellFormedResetToken(token)) throw new InvalidResetTokenError();
    const tokenHash = hashResetToken(token);
    // The directory follows the log within milliseconds; a token read from a mail is minutes old.
    const userId = this.directory.userForResetToken(tokenHash, this.clock.now());
    if (!userId) throw new InvalidResetTokenError();
    const loaded = await this.users.load(userId);
    // Token first: a caller without a valid token learns nothing from the password checks.
    assertResetTokenUsable(loaded.state, tokenHash, this.clock.now());
    assertAcceptablePassword(password, { userInputs: [loaded.state.email] });
    const passwordHash = await this.hasher.hash(password);
    // The decider checks the token again against the latest stream: of two resets racing with one token, one wins.
    const decided = await this.users.execute(userId, { type: 'ResetPassword', token_hash: tokenHash, password_hash: passwordHash, now: this.clock.now() });
    const revoked = await this.tokens.revokeAll(userId, decided.position!);
    const state = decided.state.status === 'registered' ? decided.state : loaded.state;
    return { user_id: userId, account_id: state.account_id, password_set_at: state.password!.set_at, personal_tokens_revoked: revoked };
  }
}
