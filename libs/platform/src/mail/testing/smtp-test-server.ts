import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  mailFrom: string;
  rcptTo: string[];
  raw: Buffer;
}

export interface SmtpTestServerOptions {
  /** Port to listen on (127.0.0.1); default 0, any free port. */
  port?: number;
  /**
   * Decides each DATA transaction, numbered from 1: return an SMTP reply code
   * (e.g. 451, a temporary failure) to refuse it, or nothing to accept it.
   */
  refuse?: (transaction: number) => number | undefined;
}

export interface SmtpTestServer {
  url: string;
  port: number;
  /** Accepted messages, in order. */
  received: ReceivedMail[];
  /** DATA transactions seen, refused ones included. */
  transactions(): number;
  close(): Promise<void>;
}

/** A real SMTP server (the smtp-server package) on loopback: no TLS, no auth required. */
export async function startSmtpTestServer(options: SmtpTestServerOptions = {}): Promise<SmtpTestServer> {
  const received: ReceivedMail[] = [];
  let transactions = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        transactions += 1;
        const code = options.refuse?.(transactions);
        if (code !== undefined) {
          const error = Object.assign(new Error('Mailbox busy, try again later'), { responseCode: code });
          callback(error);
          return;
        }
        received.push({
          mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          rcptTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks),
        });
        callback(null, 'Queued');
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    const listener = server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
    listener.once('error', reject);
  });
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    transactions: () => transactions,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
