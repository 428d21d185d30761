import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { SecretBox } from '../crypto/index.js';
import { JsonLogger } from '../logging/json-logger.js';
import { EmbeddedJobQueue } from '../queue/embedded/embedded-job-queue.js';
import type { JobInfo } from '../queue/job-queue.port.js';
import { MAIL_QUEUE_NAME, MailQueue, type SealedMailJob } from './mail-queue.js';
import type { MailMessage } from './mailer.port.js';
import { SmtpMailer } from './smtp-mailer.js';
import { parseEml } from './testing/parse-eml.js';
import { startSmtpTestServer, type SmtpTestServer } from './testing/smtp-test-server.js';

describe('MailQueue on the embedded job queue, delivering over SMTP', () => {
  const dirs: string[] = [];
  const servers: SmtpTestServer[] = [];
  const secretBox = SecretBox.fromKey(randomBytes(32));

  const freshDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'mail-queue-'));
    dirs.push(dir);
    return dir;
  };
  const smtp = async (options: Parameters<typeof startSmtpTestServer>[0]) => {
    const server = await startSmtpTestServer(options);
    servers.push(server);
    return server;
  };
  const capturingLogger = () => {
    const lines: Array<Record<string, unknown>> = [];
    const logger = new JsonLogger('debug', { write: (line: string) => void lines.push(JSON.parse(line)) });
    return { logger, lines };
  };
  const signupMail = (id: string): MailMessage => ({
    id,
    to: 'yaw.boateng@example.com',
    subject: 'Your API key for Yaw',
    text: `Hello Yaw,\n\nHere is your API key:\n\n    lak_live_${id}_7f3c9a1e5b\n`,
  });

  afterAll(async () => {
    for (const server of servers) await server.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('delivers exactly once after the server refused the first tries, and stores no plaintext', async () => {
    const server = await smtp({ refuse: (transaction) => (transaction <= 2 ? 451 : undefined) });
    const dir = freshDir();
    const queue = await EmbeddedJobQueue.open(dir);
    const mailer = new SmtpMailer({ url: server.url });
    const { logger, lines } = capturingLogger();
    const mail = new MailQueue({ queue, mailer, secretBox, logger, retryDelaysMs: [0, 20] });
    const message = signupMail('signup-k1');
    try {
      expect(await mail.enqueue(message)).toEqual({ added: true });
      expect(await mail.enqueue(message)).toEqual({ added: false }); // a retried signup command
      const stored = await queue.getJob<SealedMailJob>(MAIL_QUEUE_NAME, message.id);
      expect(Object.keys(stored!.data)).toEqual(['sealed']);
      expect(stored!.data.sealed).toMatch(/^v1\./);

      mail.startWorker();
      const done = await until(() => queue.getJob(MAIL_QUEUE_NAME, message.id), (job) => job?.state === 'completed');
      expect(done?.attemptsMade).toBe(3);
    } finally {
      await queue.close();
      await mailer.close();
    }

    expect(server.transactions()).toBe(3);
    expect(server.received).toHaveLength(1);
    const [received] = server.received;
    expect(received.rcptTo).toEqual(['yaw.boateng@example.com']);
    const parsed = parseEml(received.raw);
    expect(parsed.headers.get('subject')).toBe(message.subject);
    expect(parsed.text?.replace(/\r\n/g, '\n')).toBe(message.text);

    // Each refused try is logged, by id, without the mail itself.
    expect(lines.filter((line) => line.msg === 'mail delivery failed; will retry')).toEqual([
      expect.objectContaining({ level: 40, mail_id: 'signup-k1', attempt: 1, attempts: 10 }),
      expect.objectContaining({ level: 40, mail_id: 'signup-k1', attempt: 2, attempts: 10 }),
    ]);
    expect(JSON.stringify(lines)).not.toContain('lak_live');

    // The queue's LMDB files: the job id is there in clear (proving the scan reads the data), the mail is not.
    const files = readdirSync(dir).map((name) => readFileSync(path.join(dir, name)));
    expect(files.some((bytes) => bytes.includes('signup-k1'))).toBe(true);
    for (const secret of ['lak_live_signup-k1_7f3c9a1e5b', 'Here is your API key', 'yaw.boateng@example.com', 'Your API key for Yaw']) {
      expect(files.some((bytes) => bytes.includes(secret))).toBe(false);
    }
  });

  it('keeps the mail while nothing listens on the SMTP port and delivers it once a server is up', async () => {
    const port = await freePort();
    const dir = freshDir();
    const queue = await EmbeddedJobQueue.open(dir);
    const mailer = new SmtpMailer({ url: `smtp://127.0.0.1:${port}` });
    const { logger } = capturingLogger();
    // Many short retries: the test starts the server as soon as the first refusal is seen.
    const mail = new MailQueue({ queue, mailer, secretBox, logger, attempts: 100, retryDelaysMs: [0, 50] });
    const message = signupMail('signup-k2');
    let server: SmtpTestServer | undefined;
    try {
      await mail.enqueue(message);
      mail.startWorker();
      const refused = await until(
        () => queue.getJob(MAIL_QUEUE_NAME, message.id),
        (job) => (job?.attemptsMade ?? 0) >= 1,
      );
      expect(refused?.failedReason).toMatch(/ECONNREFUSED/);

      server = await smtp({ port });
      await until(() => queue.getJob(MAIL_QUEUE_NAME, message.id), (job) => job?.state === 'completed');
    } finally {
      await queue.close();
      await mailer.close();
    }
    expect(server.received).toHaveLength(1);
    expect(parseEml(server.received[0].raw).headers.get('message-id')).toBe('<signup-k2@location-api.local>');
  });

  it('leaves a mail failed after its last attempt and logs it without the body', async () => {
    const server = await smtp({ refuse: () => 550 });
    const queue = await EmbeddedJobQueue.open(freshDir());
    const mailer = new SmtpMailer({ url: server.url });
    const { logger, lines } = capturingLogger();
    const mail = new MailQueue({ queue, mailer, secretBox, logger, attempts: 3, retryDelaysMs: [0, 10] });
    const message = signupMail('signup-k3');
    let failed: JobInfo | undefined;
    try {
      await mail.enqueue(message);
      mail.startWorker();
      failed = await until(() => queue.getJob(MAIL_QUEUE_NAME, message.id), (job) => job?.state === 'failed');
    } finally {
      await queue.close();
      await mailer.close();
    }
    expect(failed).toMatchObject({ attemptsMade: 3, failedReason: expect.stringMatching(/550/) });
    expect(server.transactions()).toBe(3);
    expect(server.received).toHaveLength(0);
    const gaveUp = lines.filter((line) => line.msg === 'mail not delivered; giving up, job left failed');
    expect(gaveUp).toEqual([expect.objectContaining({ level: 50, mail_id: 'signup-k3', attempt: 3, attempts: 3 })]);
    expect(JSON.stringify(lines)).not.toContain('lak_live');
    expect(JSON.stringify(lines)).not.toContain('Here is your API key');
  });

  it('refuses a sealed payload moved to another job id', async () => {
    const server = await smtp({});
    const queue = await EmbeddedJobQueue.open(freshDir());
    const mailer = new SmtpMailer({ url: server.url });
    const { logger } = capturingLogger();
    const mail = new MailQueue({ queue, mailer, secretBox, logger, attempts: 1 });
    try {
      // A payload sealed for one mail, re-added under another id, as someone with write access to Redis could.
      const sealedForA = secretBox.seal(JSON.stringify(signupMail('mail-a')), 'mail:mail-a');
      await queue.add<SealedMailJob>(MAIL_QUEUE_NAME, 'send-mail', { sealed: sealedForA }, { jobId: 'mail-b' });
      mail.startWorker();
      const failed = await until(() => queue.getJob(MAIL_QUEUE_NAME, 'mail-b'), (job) => job?.state === 'failed');
      expect(failed?.failedReason).toMatch(/failed authentication/);
    } finally {
      await queue.close();
      await mailer.close();
    }
    expect(server.received).toHaveLength(0);
  });
});

/** Polls until `check` holds; the deadline only bounds a hang, it asserts no duration. */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not reached; last value ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

