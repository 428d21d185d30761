import { Inject } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, command, CommandPipeline, PipelineCommand, PipelineHandler, type Clock, type AnswerOf } from '../../../../platform/src/index.js';
import { assertAcceptablePassword, hashResetToken, isWellFormedResetToken, PasswordHasher } from '../../credentials/index.js';
import { assertResetTokenUsable, userDecider, userStream, type ResetPassword, type UserEvent, type UserState } from '../../domain/user.js';
import { InvalidResetTokenError } from '../../domain/user-errors.js';
import { PersonalTokens } from '../../users/personal-tokens.js';
import { SignInDirectory } from '../../users/sign-in-directory.js';
import type { PasswordResetAnswerSchema } from './reset-password.answer.js';

/** Spends a reset token and replaces the password. */
export const resetPassword = command<ResetPassword, UserState, UserEvent>({
  name: 'accounts.reset-password',
  stream: (input) => userStream(input.user_id),
  decider: userDecider,
  // The token's validity is a rule of the decider: deciding again on fresh state is sound, and of two resets racing with one token, one wins.
  onConflict: { retry: 3 },
  // A reset signs the user out everywhere: the sign-in directory must list every token issued before it.
  awaits: ['sign_in_directory'],
});

/** The user's stream step of the process below (named apart from it: `ResetPasswordCommand` is the slice's process). */
export class ResetPasswordStepCommand extends PipelineCommand<ResetPassword, UserState, UserEvent> {}

@CommandHandler(ResetPasswordStepCommand)
export class ResetPasswordStepHandler extends PipelineHandler<ResetPassword, UserState, UserEvent> {
  protected readonly definition = resetPassword;
}

export type PasswordResetResult = AnswerOf<typeof PasswordResetAnswerSchema>;

/** A user's stream as the reset reads it before hashing (one object: the pipeline keeps per-definition wiring). */
const USER_STREAM = { decider: userDecider };

/** POST /v2/auth/reset-password. */
export class ResetPasswordCommand extends Command<PasswordResetResult> {
  constructor(
    readonly token: string,
    readonly password: string,
  ) {
    super();
  }
}

/**
 * Spends a mailed reset token (interface.md, "Authentication" 5: one-time,
 * stored hashed, valid 30 minutes): the new password replaces the old one,
 * every other outstanding token of the user is void, and the personal tokens
 * issued under the old password are revoked.
 */
@CommandHandler(ResetPasswordCommand)
export class ResetPasswordHandler implements ICommandHandler<ResetPasswordCommand> {
  constructor(
    private readonly commands: CommandBus,
    // Reads only (the user's stream as the pipeline folds it); its commands go through the bus.
    private readonly streams: CommandPipeline,
    private readonly directory: SignInDirectory,
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
    // Token first, before any hashing: a caller without a valid token learns nothing from the password checks.
    const { state } = await this.streams.read(USER_STREAM, userStream(userId));
    assertResetTokenUsable(state, tokenHash, this.clock.now());
    assertAcceptablePassword(password, { userInputs: [state.email] });
    const result = await this.commands.execute(new ResetPasswordStepCommand({ type: 'ResetPassword', user_id: userId, token_hash: tokenHash, password_hash: await this.hasher.hash(password) }));
    const revoked = await this.tokens.revokeAll(userId);
    const after = result.state.status === 'registered' ? result.state : state;
    return { user_id: userId, account_id: after.account_id, password_set_at: after.password!.set_at, personal_tokens_revoked: revoked };
  }
}
