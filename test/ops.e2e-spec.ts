import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import path from 'node:path';
import { EmbeddedEventStore } from '../libs/platform/src/index.js';
import { ADMIN_KEY, bootService } from './support/boot.js';

/** `npm run ops -- …` as the operator runs it, against a data folder the service wrote. */
const root = path.resolve(import.meta.dirname, '..');

function ops(dataDir: string, ...args: string[]) {
  return spawnSync(process.execPath, ['scripts/start.mjs', 'ops', ...args], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

/** Asynchronous, for when a service in this process must keep running (LMDB locks need its event loop). */
async function opsBeside(dataDir: string, ...args: string[]): Promise<{ stdout: string; status: number }> {
  try {
    const { stdout } = await promisify(execFile)(process.execPath, ['scripts/start.mjs', 'ops', ...args], {
      cwd: root,
      env: { ...process.env, NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      timeout: 60_000,
    });
    return { stdout, status: 0 };
  } catch (error) {
    const failed = error as { stdout?: string; code?: number };
    return { stdout: failed.stdout ?? '', status: failed.code ?? -1 };
  }
}

describe('operator commands', () => {
  let dataDir: string;

  beforeAll(async () => {
    const service = await bootService();
    dataDir = service.dataDir;
    for (let index = 0; index < 25; index++) {
      await service.request('GET', '/v2/admin/audit?limit=1', { key: ADMIN_KEY, headers: { 'x-request-id': `ops-${index}` } });
    }
    await service.close();
  }, 60_000);

  it('rebuilds a projection with progress output', () => {
    const result = ops(dataDir, 'projections:rebuild', 'access_log');
    expect(result.stderr).toMatch(/rebuilding access_log: 100%/);
    expect(result.stdout).toMatch(/rebuilt access_log_v1: 25 events applied/);
    expect(result.status).toBe(0);
  }, 60_000);

  it('runs beside a live service on the same data folder', async () => {
    const service = await bootService({ dataDir });
    try {
      await service.request('GET', '/v2/admin/audit?limit=1', { key: ADMIN_KEY });
      const result = await opsBeside(dataDir, 'audit:verify');
      expect(result.stdout).toMatch(/access_log-platform: ok/);
      expect(result.status).toBe(0);
    } finally {
      await service.close();
    }
  }, 60_000);

  it('runs the operator actions from the command line, each recorded as an event', async () => {
    const issued = ops(dataDir, 'keys:issue', 'batch importer', 'basic');
    expect(issued.status).toBe(0);
    const legacy = JSON.parse(issued.stdout) as { key: string; tier: string; daily_limit: number };
    expect(legacy).toMatchObject({ tier: 'basic', daily_limit: 5000 });

    const service = await bootService({ dataDir });
    let accountId: string;
    try {
      expect((await service.request('GET', '/v2/me', { key: legacy.key })).status).toBe(200);
      const signup = await service.request('POST', '/v2/self/signup', { body: { name: 'Kwame', email: 'kwame@example.com' } });
      const key = ((await signup.json()) as { data: { key: string } }).data.key;
      accountId = ((await (await service.request('GET', '/v2/me', { key })).json()) as { data: { account_id: string } }).data.account_id;
    } finally {
      await service.close();
    }
    const tier = ops(dataDir, 'accounts:tier', accountId, 'pro');
    expect(tier.status).toBe(0);
    expect(JSON.parse(tier.stdout)).toMatchObject({ account_id: accountId, tier: 'pro', daily_limit: 20_000 });
    const banking = ops(dataDir, 'accounts:banking', accountId, 'true');
    expect(JSON.parse(banking.stdout)).toMatchObject({ banking: true });
    const allowlist = ops(dataDir, 'accounts:ip-allowlist', accountId, '10.0.0.0/8', '::ffff:192.0.2.1');
    expect(JSON.parse(allowlist.stdout)).toMatchObject({ ip_allowlist: ['10.0.0.0/8', '192.0.2.1'] });

    const badTier = ops(dataDir, 'accounts:tier', accountId, 'gold');
    expect(badTier.status).toBe(64);
    expect(badTier.stderr).toContain('tier must be one of');
    const badEntry = ops(dataDir, 'accounts:ip-allowlist', accountId, 'nonsense');
    expect(badEntry.status).toBe(1);
    expect(badEntry.stderr).toContain('"nonsense" is not an IP address or CIDR range');
  }, 90_000);

  it('refuses an unknown projection with a usage error', () => {
    const result = ops(dataDir, 'projections:rebuild', 'nope');
    expect(result.status).toBe(64);
    expect(result.stderr).toContain('known: access_log');
  }, 60_000);

  it('verifies the audit chain, and reports a tampered one with exit code 1', async () => {
    const clean = ops(dataDir, 'audit:verify');
    expect(clean.stdout).toMatch(/access_log-platform: ok, \d+ entries/);
    expect(clean.status).toBe(0);

    const store = await EmbeddedEventStore.open(path.join(dataDir, 'events'));
    const [last] = await store.readStream('access_log-platform', { direction: 'backwards', maxCount: 1 });
    // A forged entry that claims the right predecessor but whose hash does not match its content.
    await store.append('access_log-platform', [{ type: 'ApiAccessRecorded', data: { ...last.data, seq: Number(last.data.seq) + 1, prev_hash: last.data.hash, status: 204 } }], last.revision);
    await store.close();

    const tampered = ops(dataDir, 'audit:verify', 'access_log-platform');
    expect(tampered.stdout).toMatch(/BROKEN at entry (\d+) of \d+: hash mismatch/);
    expect(tampered.status).toBe(1);
  }, 60_000);
});
