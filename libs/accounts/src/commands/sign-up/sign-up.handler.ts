import { randomUUID } from 'node:crypto';
import { Inject, Logger } from '@nestjs/common';
import { Command, CommandBus, CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { command, MAIL_QUEUE, PipelineCommand, PipelineHandler, type MailQueue } from '../../../../platform/src/index.js';
import { KeyDirectory } from '../../public/key-directory.js';
import { accountDecider, accountStream, type AccountEvent, type AccountState, type OpenAccount } from '../../domain/account.js';
import { keyRecordView } from '../../key-record.view.js';
import { dailyLimitOf } from '../../quota.js';
import { attemptCounters, Attempts } from '../../throttling/attempts.js';
import { issueNewKey, issueThrough } from '../../keys/key-commands.js';

/** Opens a free account; the first event of its stream. */
export const openAccount = command<OpenAccount, AccountState, AccountEvent>({
  name: 'accounts.open-account',
  stream: (input) => accountStream(input.account_id),
  decider: accountDecider,
  // The account id is fresh and random: a conflict would mean another request chose the same id, and deciding again would only refuse it.
  onConflict: { retry: 0 },
  // Nothing to wait for here: the key issued next waits for the key directory, which then has the account too (one log, in order).
});

export class OpenAccountCommand extends PipelineCommand<OpenAccount, AccountState, AccountEvent> {}

@CommandHandler(OpenAccountCommand)
export class OpenAccountHandler extends PipelineHandler<OpenAccount, AccountState, AccountEvent> {
  protected readonly definition = openAccount;
}

/** POST /v2/self/signup: the key record of the new account's key, the key shown once. */
export class SignUpCommand extends Command<ReturnType<typeof keyRecordView>> {
  constructor(readonly request: { name: string; email: string }) {
    super();
  }
}

/**
 * Free-tier signup (interface.md, "Authentication" 2): a new account and its
 * key, returned once and mailed. The mail goes through the job queue, so
 * signup succeeds while SMTP is down. Throttled per client IP before routing
 * (SIGNUP_LIMIT_PER_IP_PER_HOUR) and per e-mail address here (issue #10).
 */
@CommandHandler(SignUpCommand)
export class SignUpHandler implements ICommandHandler<SignUpCommand> {
  private readonly logger = new Logger('signup');

  constructor(
    private readonly commands: CommandBus,
    private readonly directory: KeyDirectory,
    private readonly attempts: Attempts,
    @Inject(MAIL_QUEUE) private readonly mail: MailQueue,
  ) {}

  async execute({ request: { name, email } }: SignUpCommand): Promise<ReturnType<typeof keyRecordView>> {
    await this.attempts.consume(attemptCounters.signUpsWith(email));
    const accountId = `acct_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
    await this.commands.execute(new OpenAccountCommand({ type: 'OpenAccount', account_id: accountId, name, email, tier: 'free' }));
    const { key, record } = await issueNewKey(issueThrough(this.commands), this.directory, {
      kind: 'account',
      account_id: accountId,
      name,
      email,
      tier: 'free',
      expires_at: null,
      rotated_from: null,
    });
    await this.mail.enqueue({
      id: `signup-${record.key_id}`,
      to: email,
      subject: 'Your API key',
      text: [
        `Hello ${name},`,
        '',
        'Here is your API key. Send it in the X-API-Key header of every request.',
        '',
        `    ${key}`,
        '',
        `It is a free-tier key: ${dailyLimitOf('free')} requests per rolling 24 hours.`,
        'Keep it secret. We cannot show it again; if it leaks, rotate it with POST /v2/me/rotate.',
      ].join('\n'),
    });
    this.logger.log({ msg: 'account signed up', account_id: accountId, key_prefix: record.key_prefix });
    return keyRecordView(record, key);
  }
}
