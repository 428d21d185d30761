import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzipSync } from 'node:zlib';
import { EmbeddedEventStore } from '../libs/platform/src/index.js';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';
import { data } from './support/http.js';

/**
 * Issue 30, retention that runs (docs/adr/0024), with real processes: the
 * operator's `audit:archive` SIGKILLed after each durable step and rerun, the
 * whole history (archives + live) then holding every entry exactly once; and
 * the worker archiving on its own schedule beside live traffic, with the
 * history verified across the boundary and a tampered archive named.
 */
const root = path.resolve(import.meta.dirname, '..');
const DAY_S = 86_400;

interface Run {
  stdout: string;
  stderr: string;
  code: number | null;
  signal: NodeJS.Signals | null;
}

/** `npm run ops -- …` as a child process; resolves however it ends (a SIGKILL included). */
function ops(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['scripts/start.mjs', 'ops', ...args], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code, signal });
    });
  });
}

/** Every chain's sequence numbers: each archive's entries (read from the gzipped bundles themselves) and the live store's. */
async function history(dataDir: string): Promise<Map<string, { archived: number[]; live: number[] }>> {
  const out = new Map<string, { archived: number[]; live: number[] }>();
  const auditDir = path.join(dataDir, 'archive', 'audit');
  for (const stream of existsSync(auditDir) ? readdirSync(auditDir) : []) {
    const archived: number[] = [];
    for (const file of readdirSync(path.join(auditDir, stream)).filter((name) => name.endsWith('.bundle.json.gz')).sort()) {
      const bundle = JSON.parse(gunzipSync(readFileSync(path.join(auditDir, stream, file))).toString('utf8')) as { entries: Array<{ seq: number }> };
      archived.push(...bundle.entries.map((entry) => entry.seq));
    }
    out.set(stream, { archived, live: [] });
  }
  const events = await EmbeddedEventStore.open(path.join(dataDir, 'events'));
  try {
    for (let after = 0n; ; ) {
      const page = await events.readAll({ after, maxCount: 5000 });
      if (page.length === 0) break;
      for (const event of page) {
        if (!event.streamName.startsWith('access_log-')) continue;
        const chain = out.get(event.streamName) ?? { archived: [], live: [] };
        chain.live.push((event.data as { seq: number }).seq);
        out.set(event.streamName, chain);
      }
      after = page[page.length - 1].position;
    }
  } finally {
    await events.close();
  }
  return out;
}

/** Each entry exactly once: the archives hold 0…k in order with no repeat, the live store continues from k (its newest entry may stay live as the chain's head) to the chain's end. */
function expectEachEntryOnce(chains: Map<string, { archived: number[]; live: number[] }>, before: Map<string, number>): void {
  for (const [stream, count] of before) {
    const chain = chains.get(stream)!;
    expect({ stream, archived: chain.archived }).toEqual({ stream, archived: Array.from({ length: chain.archived.length }, (_, i) => i) });
    const rest = chain.live.filter((seq) => seq >= chain.archived.length);
    expect({ stream, all: [...chain.archived, ...rest] }).toEqual({ stream, all: Array.from({ length: count }, (_, i) => i) });
  }
}

describe('retention with real processes', () => {
  describe('the operator CLI killed at every step', () => {
    let template: string;
    const before = new Map<string, number>();
    // Far enough ahead that this month is closed, with the live window at 0: every chain is archived.
    const now = new Date(Date.now() + 70 * DAY_S * 1000).toISOString();

    beforeAll(async () => {
      const service = await bootService({ env: { AUDIT_CHECKPOINT_INTERVAL_S: '0' } });
      template = service.dataDir;
      try {
        for (const name of ['Ama', 'Kofi', 'Yaw']) {
          const key = (await data<{ key: string }>(await service.request('POST', '/v2/self/signup', { body: { name, email: `${name.toLowerCase()}-${Date.now()}@example.com` } }))).key;
          for (let index = 0; index < 4; index++) expect((await service.request('GET', '/v2/me', { key })).status).toBe(200);
        }
        for (let index = 0; index < 3; index++) await service.request('GET', '/v2/admin/audit?limit=1', { key: ADMIN_KEY });
      } finally {
        await service.close();
      }
      // The journal is settled by the first CLI run; count what the chains hold then.
      const dry = await ops(template, ['audit:archive', '--dry-run', '--now', now], { AUDIT_LIVE_WINDOW_S: '0' });
      expect(dry.code).toBe(0);
      for (const [stream, chain] of await history(template)) before.set(stream, chain.live.length);
      expect(before.size).toBeGreaterThanOrEqual(4);
      // The dry run wrote nothing.
      expect(existsSync(path.join(template, 'archive', 'audit'))).toBe(false);
    }, 240_000);

    // After the first chain's signature, its temporary bundle file, its manifest; mid-trim (one chain trimmed, the others not); the third chain's bundle.
    it.each(['signed:1', 'bundle-temp:1', 'manifest:1', 'trimmed:1', 'bundle:3'])(
      'SIGKILLed after %s, a rerun finishes: every entry is in the history exactly once, and it verifies',
      async (step) => {
        const dir = mkdtempSync(path.join(tmpdir(), 'retention-kill-'));
        cpSync(template, dir, { recursive: true });
        const env = { AUDIT_LIVE_WINDOW_S: '0' };
        const killed = await ops(dir, ['audit:archive', '--now', now], { ...env, AUDIT_ARCHIVE_TEST_KILL_AT: step });
        expect({ signal: killed.signal, stderr: killed.stderr.slice(-500) }).toEqual({ signal: 'SIGKILL', stderr: expect.any(String) });
        const rerun = await ops(dir, ['audit:archive', '--now', now], env);
        expect({ code: rerun.code, stdout: rerun.stdout, stderr: rerun.stderr.slice(-500) }).toMatchObject({ code: 0 });
        expectEachEntryOnce(await history(dir), before);
        const verified = await ops(dir, ['audit:history']);
        expect(verified.stdout).not.toMatch(/BROKEN/);
        expect(verified.stdout.match(/: ok, \d+ archives/g)).toHaveLength(before.size);
        expect(verified.code).toBe(0);
      },
      240_000,
    );
  });

  describe('the worker on its schedule beside live traffic', () => {
    let service: Service;

    beforeAll(async () => {
      service = await bootService({
        env: {
          // Months close in seconds: the job's clock runs 40 days ahead, nothing stays live past its month, a run every second.
          AUDIT_LIVE_WINDOW_S: '0',
          AUDIT_RETENTION_CLOCK_OFFSET_S: String(40 * DAY_S),
          AUDIT_RETENTION_INTERVAL_S: '1',
          AUDIT_CHECKPOINT_INTERVAL_S: '1',
        },
      });
    }, 60_000);
    afterAll(async () => {
      if (service) await service.close().catch(() => undefined);
    });

    function runOps(...args: string[]): Promise<{ stdout: string; code: number }> {
      // Asynchronous: the service in this process keeps running (LMDB needs its event loop).
      return promisify(execFile)(process.execPath, ['scripts/start.mjs', 'ops', ...args], {
        cwd: root,
        env: { ...process.env, NODE_ENV: 'test', DATA_DIR: service.dataDir, LOG_LEVEL: 'silent' },
        timeout: 120_000,
      }).then(
        ({ stdout }) => ({ stdout, code: 0 }),
        (error: { stdout?: string; code?: number }) => ({ stdout: error.stdout ?? '', code: error.code ?? -1 }),
      );
    }

    it('archives, trims and the history verifies across the boundary; the offline verifier checks an archive; a tampered one is named', async () => {
      const email = `retention-${Date.now()}@example.com`;
      const key = (await data<{ key: string }>(await service.request('POST', '/v2/self/signup', { body: { name: 'Retention', email } }))).key;
      const me = await data<{ account_id: string }>(await service.request('GET', '/v2/me', { key }));
      expect((await service.request('POST', `/v2/admin/accounts/${me.account_id}/banking`, { key: ADMIN_KEY, body: { enabled: true } })).status).toBe(200);
      for (let index = 0; index < 5; index++) expect((await service.request('GET', '/v2/banking/audit-log', { key })).status).toBe(200);
      const stream = `access_log-${me.account_id}`;
      const dir = path.join(service.dataDir, 'archive', 'audit', stream);
      // The worker archives the account's chain on its own.
      await eventually(async () => (existsSync(dir) && readdirSync(dir).some((name) => name.endsWith('.manifest.json')) ? true : undefined), 60_000);
      // Traffic goes on after the trim: the chain continues from the archive's closing head.
      for (let index = 0; index < 3; index++) expect((await service.request('GET', '/v2/banking/audit-log', { key })).status).toBe(200);
      const jwks = await (await service.request('GET', '/v2/.well-known/jwks.json')).json();
      writeFileSync(path.join(service.dataDir, 'jwks.json'), JSON.stringify(jwks));

      const verified = await runOps('audit:history', stream);
      expect(verified.stdout).toMatch(new RegExp(`^${stream}: ok, [1-9]\\d* archives \\(\\d+ entries\\) \\+ \\d+ live entries`, 'm'));
      expect(verified.code).toBe(0);
      const listed = await runOps('audit:archives');
      expect(listed.stdout).toContain(`${stream} `);

      // An export over HTTP starts at the trim's anchor and verifies to its last entry.
      const exported = await (await service.request('GET', '/v2/banking/audit-log/export', { key })).json();
      writeFileSync(path.join(service.dataDir, 'export.json'), JSON.stringify(exported));
      const verifier = (file: string) =>
        promisify(execFile)(process.execPath, [path.join(root, 'tools/verify-audit-bundle.mjs'), file, path.join(service.dataDir, 'jwks.json')]).then(
          ({ stdout }) => ({ stdout, code: 0 }),
          (error: { stdout?: string; code?: number }) => ({ stdout: error.stdout ?? '', code: error.code ?? -1 }),
        );
      // The worker archives as fast as traffic comes here, so the live part may be the kept head alone: anchored on a closing head, it verifies.
      expect((exported as { data: { anchor: { seq: number } | null } }).data.anchor).toEqual(expect.objectContaining({ seq: expect.any(Number) }));
      expect(await verifier(path.join(service.dataDir, 'export.json'))).toEqual({ stdout: expect.stringMatching(new RegExp(`^OK ${stream}: \\d+ entries verified`)), code: 0 });

      // The offline verifier reads an archive as it is stored (gzipped), with the JWKS alone.
      const first = path.join(dir, readdirSync(dir).filter((name) => name.endsWith('.bundle.json.gz')).sort()[0]);
      expect(await verifier(first)).toEqual({ stdout: expect.stringMatching(new RegExp(`^OK ${stream}: \\d+ entries verified.*signed to its last entry`)), code: 0 });

      // One byte changed in the archive: the history names that file.
      const bytes = readFileSync(first);
      bytes[bytes.length - 5] ^= 0xff;
      writeFileSync(first, bytes);
      const broken = await runOps('audit:history', stream);
      expect(broken.stdout).toContain(`${stream}: BROKEN: ${first}: `);
      expect(broken.code).toBe(1);
    }, 180_000);
  });
});
