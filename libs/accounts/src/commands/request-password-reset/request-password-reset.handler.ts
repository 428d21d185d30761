import { Inject, Logger } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { command, MAIL_QUEUE, PipelineCommand, PipelineHandler, type MailQueue, type AnswerOf } from '../../../../platform/src/index.js';
import { KeyDirectory } from '../../public/key-directory.js';
import { generateResetToken, hashResetToken } from '../../credentials/index.js';
import { RESET_TOKEN_TTL_MS, userDecider, userStream, type RequestPasswordReset, type UserEvent, type UserState } from '../../domain/user.js';
import { BackgroundTasks } from '../../public/background-tasks.js';
import { SignInDirectory } from '../../users/sign-in-directory.js';
import type { PasswordResetRequestedSchema } from './request-password-reset.answer.js';

/** Mints a reset token for a user with a password, at most 3 unexpired at a time (the decider says when). */
export const requestPasswordReset = command<RequestPasswordReset, UserState, UserEvent>({
  name: 'accounts.request-password-reset',
  stream: (input) => userStream(input.user_id),
  decider: userDecider,
  // Every rule (a password to reset, the cap on unexpired tokens) is in the decider: deciding again on fresh state is sound.
  onConflict: { retry: 3 },
  // The token is mailed only once this instance can look it up, so a reset right after the mail cannot miss it.
  awaits: ['sign_in_directory'],
});

/** The user's stream step of the process below (named apart from it: `RequestPasswordResetCommand` is the slice's process). */
export class RequestPasswordResetStepCommand extends PipelineCommand<RequestPasswordReset, UserState, UserEvent> {}

@CommandHandler(RequestPasswordResetStepCommand)
export class RequestPasswordResetStepHandler extends PipelineHandler<RequestPasswordReset, UserState, UserEvent> {
  protected readonly definition = requestPasswordReset;
}

/** The one answer, whatever the address. */
export type PasswordResetRequested = AnswerOf<typeof PasswordResetRequestedSchema>;

const ANSWER: PasswordResetRequested = {
  accepted: true,
  message: 'If an account with a password signs in with this address, a one-time reset token is on its way to it. It is valid for 30 minutes.',
};

/** POST /v2/auth/forgot-password. */
export class RequestPasswordResetCommand extends Command<PasswordResetRequested> {
  constructor(readonly email: string) {
    super();
  }
}

/**
 * interface.md, "Keys and accounts": forgot-password gives a "generic
 * response that does not reveal whether an address exists". The answer is
 * the same constant, sent before any work that depends on the address: the
 * lookup, the token and the mail happen in a background task, so neither the
 * body nor the time tells a known address from an unknown one.
 */
@CommandHandler(RequestPasswordResetCommand)
export class RequestPasswordResetHandler implements ICommandHandler<RequestPasswordResetCommand> {
  private readonly logger = new Logger('password-reset');

  constructor(
    private readonly commands: CommandBus,
    private readonly directory: SignInDirectory,
    private readonly keyDirectory: KeyDirectory,
    private readonly background: BackgroundTasks,
    @Inject(MAIL_QUEUE) private readonly mail: MailQueue,
  ) {}

  async execute({ email }: RequestPasswordResetCommand): Promise<PasswordResetRequested> {
    this.background.run('password-reset-mail', () => this.mailToken(email));
    return ANSWER;
  }

  private async mailToken(email: string): Promise<void> {
    const account = this.directory.accountForEmail(email);
    if (!account) return;
    const token = generateResetToken();
    const tokenHash = hashResetToken(token);
    const { events } = await this.commands.execute(new RequestPasswordResetStepCommand({ type: 'RequestPasswordReset', user_id: account.user_id, token_hash: tokenHash }));
    if (events.length === 0) return;
    const name = this.keyDirectory.account(account.account_id)?.name;
    await this.mail.enqueue({
      // The job id names the request without carrying the token.
      id: `password-reset-${tokenHash.slice(0, 32)}`,
      to: account.email,
      subject: 'Reset your password',
      text: [
        name ? `Hello ${name},` : 'Hello,',
        '',
        'Someone asked to reset the password you sign in with at this address. If it was you, send this',
        'one-time token with your new password to POST /v2/auth/reset-password, as {"token": "...", "password": "..."}:',
        '',
        `    ${token}`,
        '',
        `It is valid for ${RESET_TOKEN_TTL_MS / 60_000} minutes and works once. Resetting signs you out of every personal token.`,
        'If you did not ask for this, ignore this mail: your password stays as it is.',
      ].join('\n'),
    });
    this.logger.log({ msg: 'password reset token mailed', user_id: account.user_id });
  }
}
