import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';
import { data } from './support/http.js';

/**
 * Issue 30 over HTTP: an export signed to its last entry at once (the
 * periodic checkpoint round is off here, so nothing else signs it), and a
 * banking account's own replay: as of an instant, changes between two, never
 * another account's, with the tier GET /v2/me showed then.
 */
const root = path.resolve(import.meta.dirname, '..');

interface Me {
  account_id: string;
  key_prefix: string;
  tier: string;
  daily_limit: number;
}

describe('compliance self-service', () => {
  let service: Service;
  const password = 'Correct-Horse-Battery-9';

  async function bankingAccount(name: string): Promise<{ key: string; email: string; me: Me }> {
    const email = `${name.toLowerCase()}-${Math.random().toString(36).slice(2)}@example.com`;
    const key = (await data<{ key: string }>(await service.request('POST', '/v2/self/signup', { body: { name, email } }))).key;
    const me = await data<Me>(await service.request('GET', '/v2/me', { key }));
    expect((await service.request('POST', `/v2/admin/accounts/${me.account_id}/banking`, { key: ADMIN_KEY, body: { enabled: true } })).status).toBe(200);
    return { key, email, me };
  }

  function verify(name: string, document: unknown, jwks: unknown): { status: number | null; stdout: string } {
    writeFileSync(path.join(service.dataDir, `${name}.json`), JSON.stringify(document));
    writeFileSync(path.join(service.dataDir, 'jwks.json'), JSON.stringify(jwks));
    const run = spawnSync(process.execPath, [path.join(root, 'tools/verify-audit-bundle.mjs'), path.join(service.dataDir, `${name}.json`), path.join(service.dataDir, 'jwks.json')], { encoding: 'utf8' });
    return { status: run.status, stdout: run.stdout };
  }

  beforeAll(async () => {
    service = await bootService({ env: { AUDIT_CHECKPOINT_INTERVAL_S: '0' } });
  }, 60_000);
  afterAll(async () => {
    if (service) await service.close().catch(() => undefined);
  });

  it('an export verifies to its last entry the moment it is produced', async () => {
    const { key } = await bankingAccount('Export');
    for (let index = 0; index < 3; index++) expect((await service.request('GET', '/v2/banking/audit-log', { key })).status).toBe(200);
    const jwks = await (await service.request('GET', '/v2/.well-known/jwks.json')).json();
    const first = await (await service.request('GET', '/v2/banking/audit-log/export', { key })).json();
    const bundle = (first as { data: { entries: Array<{ seq: number; path: string }>; checkpoints: unknown[] } }).data;
    // Every call before the export is in it, and the newest is signed.
    expect(bundle.entries.filter((entry) => entry.path === '/v2/banking/audit-log')).toHaveLength(3);
    expect(bundle.checkpoints.length).toBeGreaterThan(0);
    const checked = verify('bundle', first, jwks);
    expect(checked.stdout).toMatch(/^OK access_log-acct_\w+: \d+ entries verified .*; signed to its last entry\n$/);
    expect(checked.status).toBe(0);
    // A second export right after includes the first one's request, and is complete too: one chain of checkpoints.
    const second = await (await service.request('GET', '/v2/banking/audit-log/export', { key })).json();
    const again = (second as { data: { entries: Array<{ path: string }> } }).data;
    expect(again.entries.map((entry) => entry.path)).toContain('/v2/banking/audit-log/export');
    expect(verify('bundle2', second, jwks).stdout).toMatch(/signed to its last entry/);
  }, 30_000);

  it('replays its own account as of several instants with the tier GET /v2/me showed then', async () => {
    const { key, me: start } = await bankingAccount('Replay');
    const accountId = start.account_id;
    const seen: Array<{ at: string; me: Me }> = [];
    const observe = async () => {
      const me = await data<Me>(await service.request('GET', '/v2/me', { key }));
      seen.push({ at: new Date().toISOString(), me });
      await new Promise((resolve) => setTimeout(resolve, 5));
    };
    await observe();
    for (const tier of ['pro', 'enterprise', 'basic']) {
      expect((await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier } })).status).toBe(200);
      await observe();
    }
    expect(new Set(seen.map(({ me }) => me.tier)).size).toBe(4);
    for (const { at, me } of seen) {
      const replay = await data<{ state: { account: { tier: string; daily_limit: number }; keys: Record<string, { tier: string; daily_limit: number }> } }>(
        await service.request('GET', `/v2/compliance/as-of?at=${at}`, { key }),
      );
      expect({ tier: replay.state.keys[me.key_prefix].tier, daily_limit: replay.state.keys[me.key_prefix].daily_limit }).toEqual({ tier: me.tier, daily_limit: me.daily_limit });
      expect(replay.state.account.tier).toBe(me.tier);
    }
    // Changes between the first and last instants: the three tier changes and the operator's requests, nothing before.
    const changes = await data<{ changes: Array<{ type: string; at: string }>; operator_actions: Array<{ path: string }> }>(
      await service.request('GET', `/v2/compliance/changes?from=${seen[0].at}&to=${seen.at(-1)!.at}`, { key }),
    );
    expect(changes.changes.filter((change) => /Tier/i.test(change.type))).toHaveLength(3);
    expect(changes.changes.every((change) => change.at > seen[0].at && change.at <= seen.at(-1)!.at)).toBe(true);
    expect(changes.operator_actions.filter((action) => action.path === `/v2/admin/accounts/${accountId}/tier`)).toHaveLength(3);
    expect((await service.request('GET', `/v2/compliance/changes?from=${seen.at(-1)!.at}&to=${seen[0].at}`, { key })).status).toBe(400);
  }, 30_000);

  it("a user's personal token replays the account; another account is refused, and the calls are audited", async () => {
    const { key, email, me } = await bankingAccount('Officer');
    expect((await service.request('POST', '/v2/me/password', { key, body: { password } })).status).toBe(200);
    const login = await service.request('POST', '/v2/auth/login', { key, body: { email, password } });
    expect(login.status).toBe(200);
    const token = (await data<{ token: string }>(login)).token;
    const now = new Date().toISOString();
    const own = await service.request('GET', `/v2/compliance/as-of?at=${now}&account_id=${me.account_id}`, { key: token });
    expect(own.status).toBe(200);
    expect((await data<{ account_id: string }>(own)).account_id).toBe(me.account_id);

    const other = await bankingAccount('Other');
    const refused = await service.request('GET', `/v2/compliance/as-of?at=${now}&account_id=${other.me.account_id}`, { key: token });
    expect(refused.status).toBe(403);
    expect((await refused.json()) as unknown).toMatchObject({ success: false, error: { code: 'ACCOUNT_MISMATCH' } });
    expect((await service.request('GET', `/v2/compliance/changes?from=2026-01-01T00:00:00Z&to=${now}&account_id=${other.me.account_id}`, { key })).status).toBe(403);
    // Without banking access: refused like every banking feature.
    const plain = (await data<{ key: string }>(await service.request('POST', '/v2/self/signup', { body: { name: 'Plain', email: `plain-${Math.random().toString(36).slice(2)}@example.com` } }))).key;
    expect((await service.request('GET', `/v2/compliance/as-of?at=${now}`, { key: plain })).status).toBe(403);

    // The access log's read model follows the chain: wait for the three calls to reach it.
    const statuses = await eventually(async () => {
      const trail = await data<{ items: Array<{ path: string; status: number }> }>(await service.request('GET', '/v2/banking/audit-log', { key }));
      const replays = trail.items.filter((item) => item.path.startsWith('/v2/compliance/'));
      return replays.length >= 3 ? replays.map((item) => item.status).sort() : undefined;
    });
    expect(statuses).toEqual([200, 403, 403]);
  }, 30_000);
});
