import { startSmtpTestServer } from '../libs/platform/src/mail/testing/smtp-test-server.js';
import { bootService, eventually, type Service } from './support/boot.js';

describe('signup mail through SMTP_URL', () => {
  // The first delivery is refused (a temporary 451): the queue retries at once, per the schedule.
  let smtp: Awaited<ReturnType<typeof startSmtpTestServer>>;
  let service: Service;

  // Booting the service is the slow part on a loaded machine: it has its own allowance, not the test's.
  beforeAll(async () => {
    smtp = await startSmtpTestServer({ refuse: (transaction) => (transaction === 1 ? 451 : undefined) });
    service = await bootService({ env: { SMTP_URL: smtp.url } });
  }, 120_000);
  afterAll(async () => {
    await service?.close();
    await smtp?.close();
  });

  it('delivers the key by SMTP; a refusing server delays the mail but never fails the signup', async () => {
    const response = await service.request('POST', '/v2/self/signup', { body: { name: 'Abena', email: 'abena@example.com' } });
    expect(response.status).toBe(201);
    const { key } = ((await response.json()) as { data: { key: string } }).data;
    const mail = await eventually(async () => smtp.received[0], 15_000);
    expect(mail.rcptTo).toEqual(['abena@example.com']);
    expect(mail.raw.toString('utf8').replace(/=\r?\n/g, '')).toContain(key);
    expect(smtp.transactions()).toBe(2);
    expect(smtp.received).toHaveLength(1);
  }, 30_000);
});
