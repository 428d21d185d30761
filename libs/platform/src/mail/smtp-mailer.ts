import { createTransport, type Transporter } from 'nodemailer';
import { toMailOptions } from './compose.js';
import { DEFAULT_MAIL_FROM, type MailMessage, type Mailer } from './mailer.port.js';

export interface SmtpMailerOptions {
  /**
   * SMTP_URL: `smtp://[user:pass@]host[:port]` (STARTTLS when the server offers it)
   * or `smtps://…` (TLS from the first byte, port 465 by default). nodemailer's
   * query options are honoured (`?tls.rejectUnauthorized=false`, `?requireTLS=true`, …).
   */
  url: string;
  from?: string;
  /** TCP connect (and TLS handshake) limit; default 5 s. */
  connectionTimeoutMs?: number;
  /** Wait for the server's 220 greeting; default 5 s. */
  greetingTimeoutMs?: number;
  /** Longest silence inside a session; default 15 s. */
  socketTimeoutMs?: number;
}

/**
 * Sends through an SMTP server, one connection per message: mail is rare
 * (signup, password reset), and no idle connection is left to go stale.
 *
 * nodemailer's defaults wait 2 minutes to connect and 10 minutes on a silent
 * socket; here a dead or hung server fails in seconds, so the MailQueue retries
 * on its own schedule instead of a worker slot hanging on a lost connection.
 */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  private readonly from: string;

  constructor(options: SmtpMailerOptions) {
    assertSmtpUrl(options.url);
    this.from = options.from ?? DEFAULT_MAIL_FROM;
    this.transport = createTransport({
      url: options.url,
      connectionTimeout: options.connectionTimeoutMs ?? 5_000,
      greetingTimeout: options.greetingTimeoutMs ?? 5_000,
      socketTimeout: options.socketTimeoutMs ?? 15_000,
      dnsTimeout: options.connectionTimeoutMs ?? 5_000,
    });
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail(toMailOptions(message, this.from));
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

/** Refuses anything but smtp:// and smtps:// up front, without echoing the URL (it may hold a password). */
export function assertSmtpUrl(url: string): void {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new Error('SMTP_URL is not a valid URL (expected smtp://host:port or smtps://host:port)');
  }
  if (protocol !== 'smtp:' && protocol !== 'smtps:') {
    throw new Error(`SMTP_URL must use smtp:// or smtps://, got ${protocol}//`);
  }
}
