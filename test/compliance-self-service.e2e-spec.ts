import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { latLngToCell } from 'h3-js';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { hexCodeFromCell } from '../libs/addressing/src/index.js';
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

  it("the customer's own copy: signed, verifiable with the JWKS alone, paginated; after erasure it shows the erasure and no coordinate", async () => {
    const key = (await data<{ key: string }>(await service.request('POST', '/v2/self/signup', { body: { name: 'Lender', email: `lender-${Math.random().toString(36).slice(2)}@example.com` } }))).key;
    const customer = 'subject-1';
    const proof = { kind: 'otp', reference: 'otp-issue47-copy-7731' };
    const notice = { version: 'loan-monitoring-2026-10', sha256: 'cd'.repeat(32), language: 'tw' };
    expect((await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: customer, purpose: 'loan_collections', notice, channel: 'app', proof } })).status).toBe(200);
    const pings = [0, 1, 2].map((index) => ({ customer_id: customer, lat: 5.6037 + index * 0.001, lng: -0.187, accuracy_m: 10, recorded_at: new Date(Date.now() - (3 - index) * 60_000).toISOString() }));
    expect((await service.request('POST', '/v2/monitoring/pings', { key, body: { pings } })).status).toBe(200);
    const address = hexCodeFromCell(latLngToCell(5.6037, -0.187, 13));
    // A KYC verification with a position the lender collected, and a proximity check with the device's fix: both place the customer.
    const sent = { lat: 5.60382, lng: -0.18666 };
    const fix = { lat: 5.60391, lng: -0.18677 };
    const kyc = await service.request('POST', '/v2/kyc/verify', {
      key,
      body: { customer_id: customer, address, positions: [{ ...sent, accuracy_m: 12, recorded_at: new Date(Date.now() - 120_000).toISOString() }], use_recorded_pings: false },
    });
    expect(kyc.status).toBe(200);
    const proximity = await service.request('POST', '/v2/verify/proximity', { key, body: { customer_id: customer, address, ...fix, accuracy_m: 10, recorded_at: new Date(Date.now() - 60_000).toISOString() } });
    expect(proximity.status).toBe(200);
    const jwks = createLocalJWKSet((await (await service.request('GET', '/v2/.well-known/jwks.json')).json()) as JSONWebKeySet);

    type Copy = {
      document: {
        customer_id: string;
        consents: Array<{ type: string; receipt: unknown; data: Record<string, unknown> }>;
        erasure: unknown;
        location_history: { items: Array<{ type: string; lat?: number }>; next_cursor: string | null };
        verifications: { items: Array<Record<string, unknown> & { type: string }> };
      };
      jws: string;
    };
    const ask = async (body: Record<string, unknown>) => {
      const response = await service.request('POST', '/v2/consent/access-request', { key, body: { customer_id: customer, ...body } });
      expect(response.status).toBe(200);
      const copy = await data<Copy>(response);
      // Offline check: the JWS verifies with the served JWKS, and its payload is the document served beside it.
      const { payload, protectedHeader } = await compactVerify(copy.jws, jwks);
      expect(protectedHeader).toMatchObject({ alg: 'EdDSA', typ: 'customer-copy' });
      expect(JSON.parse(new TextDecoder().decode(payload))).toEqual(copy.document);
      return copy.document;
    };
    const whole = await ask({});
    expect(whole.customer_id).toBe(customer);
    expect(whole.consents.map((consent) => consent.type)).toEqual(['ConsentGranted']);
    expect(whole.location_history.items.filter((item) => item.type === 'PingRecorded').map((item) => item.lat)).toEqual(pings.map((ping) => ping.lat));
    expect(whole.verifications.items.map((item) => item.type)).toEqual(['AddressVerified', 'ProximityVerified']);
    // Before the erasure the copy is everything held: the consent's proof, the positions sent.
    expect(JSON.stringify(whole)).toContain(proof.reference);
    expect(whole.erasure).toBeNull();
    // Paginated: two records a page, the cursor walks the same history.
    const walked: unknown[] = [];
    let cursor: string | null = null;
    do {
      const page = await ask({ limit: 2, ...(cursor ? { cursor } : {}) });
      walked.push(...page.location_history.items);
      cursor = page.location_history.next_cursor;
    } while (cursor);
    expect(walked).toEqual(whole.location_history.items);
    // Tampered: the signature no longer verifies.
    const { jws } = await data<Copy>(await service.request('POST', '/v2/consent/access-request', { key, body: { customer_id: customer } }));
    const [header, body, signature] = jws.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString('utf8')), consents: [] })).toString('base64url');
    await expect(compactVerify(`${header}.${forged}.${signature}`, jwks)).rejects.toThrow();

    expect((await service.request('POST', '/v2/consent/revoke', { key, body: { customer_id: customer } })).status).toBe(200);
    expect((await service.request('POST', '/v2/consent/delete-data', { key, body: { customer_id: customer } })).status).toBe(200);
    const after = await ask({});
    expect(after.erasure).toMatchObject({ erased_at: expect.any(String), events_erased: expect.any(Number) });
    expect(after.consents.map((consent) => consent.type)).toEqual(['ConsentGranted', 'ConsentRevoked', 'CustomerDataErased']);
    expect(after.location_history.items).toEqual([]);
    // Issue 47: no position, fix or address anywhere in the copy, the verifications included; the consent history as facts,
    // without its notice, proof or receipts. The verifications are kept as their decisions (erasure never deletes them).
    const text = JSON.stringify(after);
    expect(text).not.toMatch(/"(lat|lng|positions|device|address|address_code|token)"/);
    for (const secret of [proof.reference, notice.sha256, String(sent.lat), String(sent.lng), String(fix.lat), String(fix.lng), address]) expect(text).not.toContain(secret);
    expect(after.consents[0]).toEqual({ type: 'ConsentGranted', at: expect.any(String), receipt: null, data: { purpose: 'loan_collections', scope: ['location'], granted_at: expect.any(String) } });
    expect(after.verifications.items).toEqual([
      expect.objectContaining({ type: 'AddressVerified', verification_id: whole.verifications.items[0].verification_id, result: whole.verifications.items[0].result, verified_at: whole.verifications.items[0].verified_at }),
      expect.objectContaining({ type: 'ProximityVerified', verification_id: whole.verifications.items[1].verification_id, decision: whole.verifications.items[1].decision }),
    ]);
    expect((await service.request('POST', '/v2/consent/access-request', { key, body: { customer_id: 'bad id!' } })).status).toBe(400);
  }, 60_000);
});

describe("the customer's copy: its rate limit and its paginated sections", () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService({ env: { AUDIT_CHECKPOINT_INTERVAL_S: '0', ACCESS_REQUESTS_PER_ACCOUNT_PER_HOUR: '4' } });
  }, 60_000);
  afterAll(async () => {
    if (service) await service.close().catch(() => undefined);
  });

  it('walks the verifications page by page with their cursor, nothing dropped; the fifth copy in the hour is 429 with Retry-After', async () => {
    const key = (await data<{ key: string }>(await service.request('POST', '/v2/self/signup', { body: { name: 'Pager', email: `pager-${Math.random().toString(36).slice(2)}@example.com` } }))).key;
    const customer = 'subject-pages';
    expect((await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: customer, purpose: 'loan_collections' } })).status).toBe(200);
    for (const lat of [5.6037, 5.6137, 5.6237]) {
      const kyc = await service.request('POST', '/v2/kyc/verify', { key, body: { customer_id: customer, address: hexCodeFromCell(latLngToCell(lat, -0.187, 13)), positions: [], use_recorded_pings: false } });
      expect(kyc.status).toBe(200);
    }
    type Section = { items: Array<{ type: string; address?: string }>; cursor: string | null; truncated: boolean; next_cursor: string | null };
    type Copy = { document: { verifications: Section; webhook_deliveries: Section } };
    const ask = async (body: Record<string, unknown>) => data<Copy>(await service.request('POST', '/v2/consent/access-request', { key, body: { customer_id: customer, ...body } }));
    // A malformed cursor is refused at the edge (and costs nothing of the hour's allowance).
    const bad = await service.request('POST', '/v2/consent/access-request', { key, body: { customer_id: customer, verifications_cursor: 'x1' } });
    expect(bad.status).toBe(400);

    const whole = (await ask({})).document;
    expect(whole.verifications).toMatchObject({ cursor: null, truncated: false, next_cursor: null });
    expect(whole.verifications.items).toHaveLength(3);
    expect(whole.webhook_deliveries).toEqual({ items: [], cursor: null, truncated: false, next_cursor: null });
    const walked: Section['items'] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: Section = (await ask({ limit: 1, ...(cursor ? { verifications_cursor: cursor } : {}) })).document.verifications;
      expect(page.cursor).toBe(cursor);
      expect(page.truncated).toBe(page.next_cursor !== null);
      walked.push(...page.items);
      cursor = page.next_cursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(walked).toEqual(whole.verifications.items);

    // 1 + 3 copies so far: the hour's allowance (ACCESS_REQUESTS_PER_ACCOUNT_PER_HOUR=4) is spent.
    const refused = await service.request('POST', '/v2/consent/access-request', { key, body: { customer_id: customer } });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(await refused.json()).toMatchObject({ error: { code: 'RATE_LIMITED', message: expect.stringMatching(new RegExp(`try again in ${retryAfter} s`)), details: { retry_after_s: retryAfter } } });
  }, 60_000);
});
