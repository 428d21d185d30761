import { randomUUID } from 'node:crypto';
import { Inject, Logger } from '@nestjs/common';
import { CommandHandler, type ICommandHandler } from '@nestjs/cqrs';
import { MAIL_QUEUE, type MailQueue } from '../../../../platform/src/index.js';
import { Accounts } from '../../accounts.js';
import { ApiKeys } from '../../api-keys.js';
import { keyRecordView } from '../../key-record.view.js';
import { dailyLimitOf } from '../../quota.js';
import { SignUpCommand } from './sign-up.command.js';

/**
 * Free-tier signup: a new account and its key, returned once and mailed.
 * The mail goes through the job queue, so signup succeeds while SMTP is down.
 */
@CommandHandler(SignUpCommand)
export class SignUpHandler implements ICommandHandler<SignUpCommand> {
  private readonly logger = new Logger('signup');

  constructor(
    private readonly keys: ApiKeys,
    private readonly accounts: Accounts,
    @Inject(MAIL_QUEUE) private readonly mail: MailQueue,
  ) {}

  async execute(command: SignUpCommand): Promise<ReturnType<typeof keyRecordView>> {
    const accountId = `acct_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
    await this.accounts.execute(accountId, (now) => ({
      type: 'OpenAccount',
      data: { account_id: accountId, name: command.name, email: command.email, tier: 'free' },
      now,
    }));
    const { key, record } = await this.keys.issue({
      kind: 'account',
      account_id: accountId,
      name: command.name,
      email: command.email,
      tier: 'free',
      expires_at: null,
      rotated_from: null,
    });
    await this.mail.enqueue({
      id: `signup-${record.key_id}`,
      to: command.email,
      subject: 'Your API key',
      text: [
        `Hello ${command.name},`,
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
