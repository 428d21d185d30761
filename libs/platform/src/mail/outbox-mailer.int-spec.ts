import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Clock } from '../clock.js';
import { openMailer } from './index.js';
import { DEFAULT_MAIL_FROM } from './mailer.port.js';
import { OutboxMailer, outboxFileName } from './outbox-mailer.js';
import { parseEml } from './testing/parse-eml.js';

describe('OutboxMailer', () => {
  const dirs: string[] = [];
  const freshDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'outbox-'));
    dirs.push(dir);
    return dir;
  };
  const at = (iso: string): Clock => ({ now: () => new Date(iso) });

  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('writes one complete RFC 5322 message per mail, named by time and id, and no temp file', async () => {
    const dir = path.join(freshDir(), 'outbox');
    const mailer = new OutboxMailer({ dir, from: 'Location API <keys@example.test>', clock: at('2026-11-22T10:15:30.123Z') });
    await mailer.send({
      id: 'signup-key_01',
      to: 'ama@example.com',
      subject: 'Votre clé API ✓',
      text: 'Akwaaba, Ama!\nYour key: lak_live_xyz ✓',
      html: '<p>Akwaaba, <b>Ama</b>!</p>',
    });
    await mailer.close();

    expect(readdirSync(dir)).toEqual(['2026-11-22T10-15-30.123Z-signup-key_01.eml']);
    const file = path.join(dir, '2026-11-22T10-15-30.123Z-signup-key_01.eml');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const raw = readFileSync(file);
    expect(raw.toString('latin1')).toMatch(/^[\x00-\x7f]*$/); // MIME-encoded: 7-bit safe on any transport
    expect(raw.toString('latin1').split('\r\n').length).toBeGreaterThan(8); // CRLF line ends, as on the wire
    expect(raw.toString('latin1')).not.toMatch(/[^\r]\n/);

    const mail = parseEml(raw);
    expect(mail.headers.get('from')).toBe('Location API <keys@example.test>');
    expect(mail.headers.get('to')).toBe('ama@example.com');
    expect(mail.headers.get('subject')).toBe('Votre clé API ✓');
    expect(mail.headers.get('message-id')).toBe('<signup-key_01@example.test>');
    expect(mail.headers.get('date')).toBe('Sun, 22 Nov 2026 10:15:30 +0000');
    expect(mail.headers.get('mime-version')).toBe('1.0');
    expect(mail.headers.get('content-type')).toMatch(/^multipart\/alternative/);
    expect(mail.text?.replace(/\r\n/g, '\n')).toBe('Akwaaba, Ama!\nYour key: lak_live_xyz ✓');
    expect(mail.html).toBe('<p>Akwaaba, <b>Ama</b>!</p>');
  });

  it('makes any id safe as a file name and hashes it into the Message-ID', async () => {
    const dir = freshDir();
    const mailer = new OutboxMailer({ dir, clock: at('2026-01-02T03:04:05.006Z') });
    await mailer.send({ id: '../../etc/passwd: x', to: 'a@example.com', subject: 'plain', text: 'hi' });
    await mailer.close();

    const [name] = readdirSync(dir);
    expect(name).toBe('2026-01-02T03-04-05.006Z-.._.._etc_passwd__x.eml');
    const mail = parseEml(readFileSync(path.join(dir, name)));
    expect(mail.headers.get('from')).toBe(DEFAULT_MAIL_FROM);
    expect(mail.headers.get('message-id')).toMatch(/^<[0-9a-f]{32}@location-api\.local>$/);
    expect(mail.headers.get('content-type')).toMatch(/^text\/plain; charset=utf-8/);
    expect(mail.text?.trimEnd()).toBe('hi');
  });

  it('is what openMailer gives without an SMTP URL, writing under DATA_DIR/outbox', async () => {
    const dataDir = freshDir();
    const mailer = await openMailer({ dataDir });
    expect(mailer).toBeInstanceOf(OutboxMailer);
    await mailer.send({ id: 'one', to: 'a@example.com', subject: 's', text: 't' });
    await mailer.send({ id: 'two', to: 'b@example.com', subject: 's', text: 't' });
    await mailer.close();
    const names = readdirSync(path.join(dataDir, 'outbox')).sort();
    expect(names).toHaveLength(2);
    expect(names.every((name) => /^\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}Z-(one|two)\.eml$/.test(name))).toBe(true);
  });

  it('names files so they sort by time', () => {
    const earlier = outboxFileName(new Date('2026-03-01T09:59:59.999Z'), 'b');
    const later = outboxFileName(new Date('2026-03-01T10:00:00.000Z'), 'a');
    expect([later, earlier].sort()).toEqual([earlier, later]);
    expect(outboxFileName(new Date(0), '')).toBe('1970-01-01T00-00-00.000Z-mail.eml');
  });
});
