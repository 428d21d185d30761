import path from 'node:path';
import type { Mailer } from './mailer.port.js';
import { OutboxMailer } from './outbox-mailer.js';
import { SmtpMailer } from './smtp-mailer.js';

export * from './mailer.port.js';
export { SmtpMailer, type SmtpMailerOptions } from './smtp-mailer.js';
export { OutboxMailer, outboxFileName, type OutboxMailerOptions } from './outbox-mailer.js';
export {
  MailQueue,
  MAIL_ATTEMPTS,
  MAIL_QUEUE,
  MAIL_QUEUE_NAME,
  MAIL_RETRY_DELAYS_MS,
  SEND_MAIL_JOB,
  type MailQueueOptions,
  type SealedMailJob,
} from './mail-queue.js';

export interface MailerOptions {
  /** SMTP_URL; when set, mail goes to that server. */
  smtpUrl?: string;
  /** DATA_DIR; without SMTP_URL, mail is written under `<dataDir>/outbox`. */
  dataDir: string;
  /** MAIL_FROM; default DEFAULT_MAIL_FROM. */
  from?: string;
}

/** SMTP when a URL is configured, `.eml` files under DATA_DIR/outbox otherwise (decisions.md, SMTP_URL). */
export async function openMailer(options: MailerOptions): Promise<Mailer> {
  const { from } = options;
  if (options.smtpUrl) return new SmtpMailer({ url: options.smtpUrl, from });
  return new OutboxMailer({ dir: path.join(options.dataDir, 'outbox'), from });
}
