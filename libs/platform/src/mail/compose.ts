import { createHash } from 'node:crypto';
import type { SendMailOptions } from 'nodemailer';
import type { MailMessage } from './mailer.port.js';

/**
 * The nodemailer message both adapters send, so an `.eml` in the outbox is
 * byte for byte the message SMTP would have carried (apart from Date).
 */
export function toMailOptions(message: MailMessage, from: string, date?: Date): SendMailOptions {
  return {
    from,
    to: message.to,
    subject: message.subject,
    text: message.text,
    ...(message.html !== undefined ? { html: message.html } : {}),
    messageId: messageIdFor(message.id, from),
    ...(date ? { date } : {}),
  };
}

const SAFE_LOCAL_PART = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/;

/**
 * `<id@sender-domain>`: the same mail id always gives the same Message-ID, so
 * a delivery repeated after a lost acknowledgement (the queue is at least once)
 * can be recognised downstream. Ids that are not a valid dot-atom are hashed.
 */
export function messageIdFor(id: string, from: string): string {
  const local = SAFE_LOCAL_PART.test(id) && !id.includes('..') && !id.endsWith('.')
    ? id
    : createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 32);
  return `<${local}@${senderDomain(from)}>`;
}

function senderDomain(from: string): string {
  const match = /@([A-Za-z0-9.-]+)>?\s*$/.exec(from);
  return match ? match[1] : 'location-api.local';
}
