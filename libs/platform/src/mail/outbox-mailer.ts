import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import { createTransport, type Transporter } from 'nodemailer';
import { systemClock, type Clock } from '../clock.js';
import { toMailOptions } from './compose.js';
import { DEFAULT_MAIL_FROM, type MailMessage, type Mailer } from './mailer.port.js';

export interface OutboxMailerOptions {
  /** The outbox folder, `DATA_DIR/outbox`; created when missing. */
  dir: string;
  from?: string;
  clock?: Clock;
}

/**
 * Without SMTP_URL, each mail is written as an RFC 5322 message to
 * `DATA_DIR/outbox/<time>-<id>.eml` (decisions.md, SMTP_URL), where a developer
 * opens it with any mail client, or a test reads the key a signup sent.
 *
 * The message is rendered by nodemailer's stream transport, the same composer
 * that feeds SMTP (headers, Message-ID, Date, MIME-encoded UTF-8), with CRLF
 * line ends as on the wire. A file appears complete or not at all: it is
 * written to a dot-prefixed temp name in the same folder, synced, then renamed.
 * Files are 0600 because a signup mail carries an API key.
 */
export class OutboxMailer implements Mailer {
  private readonly transport: Transporter;
  private readonly dir: string;
  private readonly from: string;
  private readonly clock: Clock;

  constructor(options: OutboxMailerOptions) {
    this.dir = options.dir;
    this.from = options.from ?? DEFAULT_MAIL_FROM;
    this.clock = options.clock ?? systemClock;
    this.transport = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  }

  async send(message: MailMessage): Promise<void> {
    const date = this.clock.now();
    const info = await this.transport.sendMail(toMailOptions(message, this.from, date));
    const eml = info.message as Buffer;

    await mkdir(this.dir, { recursive: true });
    const name = outboxFileName(date, message.id);
    const file = path.join(this.dir, name);
    const temp = path.join(this.dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      const handle = await open(temp, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL, 0o600);
      try {
        await handle.writeFile(eml);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, file);
    } catch (error) {
      await unlink(temp).catch(() => undefined);
      throw error;
    }
    // The queue counts the mail as sent once this resolves: the new name must survive a power cut.
    await syncDir(this.dir);
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, fsConstants.O_RDONLY);
  try {
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a directory; the file itself is synced.
  } finally {
    await handle.close();
  }
}

/**
 * `2026-11-22T10-15-30.123Z-<id>.eml`: the ISO time with ':' replaced (Windows and
 * some sync tools refuse it), so names still sort by time; the id keeps only
 * letters, digits, '.', '_' and '-' (anything else becomes '_'), at most 100 characters.
 */
export function outboxFileName(date: Date, id: string): string {
  const time = date.toISOString().replace(/:/g, '-');
  const safeId = id.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 100) || 'mail';
  return `${time}-${safeId}.eml`;
}
