import net, { type AddressInfo } from 'node:net';
import { DEFAULT_MAIL_FROM } from './mailer.port.js';
import { SmtpMailer } from './smtp-mailer.js';
import { parseEml } from './testing/parse-eml.js';
import { startSmtpTestServer, type SmtpTestServer } from './testing/smtp-test-server.js';

describe('SmtpMailer', () => {
  let server: SmtpTestServer;

  beforeAll(async () => {
    server = await startSmtpTestServer();
  });

  afterAll(async () => {
    await server.close();
  });

  it('delivers a message the server accepts, with envelope, headers and bodies', async () => {
    const mailer = new SmtpMailer({ url: server.url, from: 'Location API <keys@example.test>' });
    try {
      await mailer.send({
        id: 'signup-42',
        to: 'amina@example.com',
        subject: 'Your API key',
        text: 'Your key is lak_live_abc123.\nKeep it safe.',
        html: '<p>Your key is <code>lak_live_abc123</code>.</p>',
      });
    } finally {
      await mailer.close();
    }

    const mail = server.received.at(-1)!;
    expect(mail.mailFrom).toBe('keys@example.test');
    expect(mail.rcptTo).toEqual(['amina@example.com']);
    const parsed = parseEml(mail.raw);
    expect(parsed.headers.get('to')).toBe('amina@example.com');
    expect(parsed.headers.get('from')).toBe('Location API <keys@example.test>');
    expect(parsed.headers.get('subject')).toBe('Your API key');
    expect(parsed.headers.get('message-id')).toBe('<signup-42@example.test>');
    expect(parsed.headers.get('date')).toBeDefined();
    expect(parsed.text?.replace(/\r\n/g, '\n')).toBe('Your key is lak_live_abc123.\nKeep it safe.');
    expect(parsed.html).toBe('<p>Your key is <code>lak_live_abc123</code>.</p>');
  });

  it('sends from the default address and keeps UTF-8 subject and body intact', async () => {
    const mailer = new SmtpMailer({ url: server.url });
    try {
      await mailer.send({ id: 'reset-7', to: 'kofi@example.com', subject: 'Réinitialisation — clé ✓', text: 'Bonjour Kòfí, voilà: ✓' });
    } finally {
      await mailer.close();
    }
    const mail = server.received.at(-1)!;
    expect(mail.mailFrom).toBe(DEFAULT_MAIL_FROM);
    const parsed = parseEml(mail.raw);
    expect(parsed.headers.get('subject')).toBe('Réinitialisation — clé ✓');
    expect(parsed.text?.trimEnd()).toBe('Bonjour Kòfí, voilà: ✓');
  });

  it('fails instead of hanging when the server accepts the connection but never greets', async () => {
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${port}`, greetingTimeoutMs: 200 });
    try {
      await expect(mailer.send({ id: 'm', to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow(/greeting/i);
    } finally {
      await mailer.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });

  it('fails when nothing listens', async () => {
    const port = await freePort();
    const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${port}` });
    try {
      await expect(mailer.send({ id: 'm', to: 'a@example.com', subject: 's', text: 't' })).rejects.toThrow(/ECONNREFUSED/);
    } finally {
      await mailer.close();
    }
  });

  it('refuses a URL that is not smtp:// or smtps://, without echoing it', () => {
    expect(() => new SmtpMailer({ url: 'http://user:hunter2@mail.example.com' })).toThrow('SMTP_URL must use smtp:// or smtps://, got http://');
    expect(() => new SmtpMailer({ url: 'mail.example.com:25' })).toThrow(/SMTP_URL/);
    expect(() => new SmtpMailer({ url: 'not a url' })).toThrow(/not a valid URL/);
  });
});

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
