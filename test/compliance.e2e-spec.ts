import { execFile, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';
import { accountOf, data, signUp } from './support/http.js';

/** Issue 14 over HTTP: the account as of an instant, the export bundle, checked by the standalone verifier with the served JWKS. */
const root = path.resolve(import.meta.dirname, '..');
const run = promisify(execFile);

describe('compliance: as-of replay and verifiable export', () => {
  let service: Service;
  let key: string;
  let accountId: string;

  beforeAll(async () => {
    service = await bootService({ env: { AUDIT_CHECKPOINT_INTERVAL_S: '1' } });
    key = await signUp(service, 'Ledger');
    accountId = await accountOf(service, key);
    expect((await service.request('POST', `/v2/admin/accounts/${accountId}/banking`, { key: ADMIN_KEY, body: { enabled: true } })).status).toBe(200);
    for (let index = 0; index < 3; index++) expect((await service.request('GET', '/v2/banking/audit-log', { key })).status).toBe(200);
  }, 60_000);
  afterAll(async () => {
    if (service) await service.close().catch(() => undefined);
  });

  it('replays the account before and after banking access was granted, with the operator action', async () => {
    const now = await data<{ state: { account: { banking_access: boolean } }; operator_actions: Array<{ path: string }> }>(
      await service.request('GET', `/v2/admin/accounts/${accountId}/as-of?at=${new Date().toISOString()}`, { key: ADMIN_KEY }),
    );
    expect(now.state.account.banking_access).toBe(true);
    expect(now.operator_actions.map((action) => action.path)).toContain(`/v2/admin/accounts/${accountId}/banking`);
    const before = await service.request('GET', `/v2/admin/accounts/${accountId}/as-of?at=2000-01-01T00:00:00Z`, { key: ADMIN_KEY });
    expect(before.status).toBe(404);
    const bad = await service.request('GET', `/v2/admin/accounts/${accountId}/as-of?at=yesterday`, { key: ADMIN_KEY });
    expect(bad.status).toBe(400);
    expect((await service.request('GET', `/v2/admin/accounts/${accountId}/as-of?at=2026-01-01T00:00:00Z`, { key })).status).toBe(401);
  });

  it("exports the caller's own trail as a bundle the verifier accepts with the JWKS alone", async () => {
    // Wait for a checkpoint round to sign the account's chain.
    await eventually(async () => {
      const bundle = await data<{ checkpoints: unknown[] }>(await service.request('GET', `/v2/admin/audit/export?account_id=${accountId}`, { key: ADMIN_KEY }));
      return bundle.checkpoints.length > 0 ? true : undefined;
    }, 15_000);
    const response = await service.request('GET', '/v2/banking/audit-log/export', { key });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { data: { stream: string; entries: Array<{ account_id: string }> } };
    expect(body.data.stream).toBe(`access_log-${accountId}`);
    expect(new Set(body.data.entries.map((entry) => entry.account_id))).toEqual(new Set([accountId]));
    const jwks = await (await service.request('GET', '/v2/.well-known/jwks.json')).json();
    const dir = service.dataDir;
    writeFileSync(path.join(dir, 'bundle.json'), JSON.stringify(body));
    writeFileSync(path.join(dir, 'jwks.json'), JSON.stringify(jwks));
    const { stdout } = await run(process.execPath, [path.join(root, 'tools/verify-audit-bundle.mjs'), path.join(dir, 'bundle.json'), path.join(dir, 'jwks.json')]);
    expect(stdout).toMatch(/^OK access_log-acct_\w+: \d+ entries verified/);
  }, 30_000);

  it('the operator commands replay, export and verify with the checkpoints (service stopped: the embedded store is one process)', async () => {
    await service.close();
    const ops = (...args: string[]) =>
      spawnSync(process.execPath, ['scripts/start.mjs', 'ops', ...args], { cwd: root, env: { ...process.env, NODE_ENV: 'test', DATA_DIR: service.dataDir, LOG_LEVEL: 'silent' }, encoding: 'utf8', timeout: 60_000 });
    const replay = ops('audit:replay', accountId, '--at', new Date().toISOString());
    expect(replay.status).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({ account_id: accountId, state: { account: { banking_access: true } } });
    expect(ops('audit:replay', accountId).status).toBe(64);
    const exported = ops('audit:export', accountId);
    expect(exported.status).toBe(0);
    writeFileSync(path.join(service.dataDir, 'ops-bundle.json'), exported.stdout);
    const checked = spawnSync(process.execPath, [path.join(root, 'tools/verify-audit-bundle.mjs'), path.join(service.dataDir, 'ops-bundle.json'), path.join(service.dataDir, 'jwks.json')], { encoding: 'utf8' });
    expect(checked.stdout).toMatch(/^OK /);
    const verified = ops('audit:verify', `access_log-${accountId}`);
    expect(verified.stdout).toMatch(/ok, \d+ entries, head \w+, [1-9]\d* signed checkpoints up to seq \d+/);
    expect(verified.status).toBe(0);
  }, 90_000);
});
