/**
 * The mail port: signup keys and password resets leave through here.
 * Adapters: SMTP (when SMTP_URL is set) and an outbox of `.eml` files under
 * DATA_DIR/outbox (decisions.md, SMTP_URL). Callers that must not fail or lose
 * mail while SMTP is down go through `MailQueue`, which retries with a Mailer.
 */

export interface MailMessage {
  /**
   * Stable id of this mail, chosen by the caller (e.g. derived from the event
   * that causes it): it deduplicates the queued job and becomes the Message-ID,
   * so a retried delivery is recognisable as the same message.
   */
  id: string;
  /** One recipient address. */
  to: string;
  subject: string;
  /** Plain-text body; always sent, so every client can read the mail. */
  text: string;
  /** Optional HTML alternative of `text`. */
  html?: string;
}

export interface Mailer {
  /** Resolves once the message is handed over (accepted by the SMTP server, or written to the outbox). */
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export const MAILER = Symbol('Mailer');

/** Sender when none is configured (MAIL_FROM is read by the config layer and passed in as `from`). */
export const DEFAULT_MAIL_FROM = 'no-reply@location-api.local';
