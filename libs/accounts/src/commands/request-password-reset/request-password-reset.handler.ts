import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { CLOCK, CONFIG, MAIL_QUEUE, type Clock, type Config, type MailQueue } from '../../../../platform/src/index.js';
import { KeyDirectory } from '../../authentication/key-directory.js';
import { generateResetToken, hashResetToken } from '../../credentials/index.js';
import { BackgroundTasks } from '../../users/background-tasks.js';
import { RESET_TOKEN_TTL_MS } from '../../users/domain/user.js';
import { SignInDirectory } from '../../users/sign-in-directory.js';
import { Users } from '../../users/users.js';
import { RequestPasswordResetCommand, type PasswordResetRequested } from './request-password-reset.command.js';

const ANSWER: PasswordResetRequested = {
  accepted: true,
  message: 'If an account with a password signs in with this address, a one-time reset token is on its way to it. It is valid for 30 minutes.',
};

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
    private readonly directory: SignInDirectory,
    private readonly users: Users,
    private readonly keyDirectory: KeyDirectory,
    private readonly background: BackgroundTasks,
    @Inject(MAIL_QUEUE) private readonly mail: MailQueue,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(CONFIG) private readonly config: Config,
  ) {}

  execute({ email }: RequestPasswordResetCommand): Promise<PasswordResetRequested> {
    this.background.run('password-reset-mail', () => this.mailToken(email));
    return Promise.resolve(ANSWER);
  }

  /** Mails a token only to a user who has a password, at most 3 unexpired at a time (the decider says when). */
  private async mailToken(email: string): Promise<void> {
    const account = this.directory.accountForEmail(email);
    if (!account) return;
    const token = generateResetToken();
    const tokenHash = hashResetToken(token);
    const decided = await this.users.execute(account.user_id, { type: 'RequestPasswordReset', token_hash: tokenHash, now: this.clock.now() });
    if (decided.events.length === 0) return;
    // Mail only once this instance can look the token up, so a reset right after the mail cannot miss it.
    await this.directory.waitFor(decided.position!, this.config.projectionWaitMs);
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
