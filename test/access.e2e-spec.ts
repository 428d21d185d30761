import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';

interface Issued {
  key: string;
  key_prefix: string;
  tier: string;
  daily_limit: number;
}

describe('access rules and the operator interface over HTTP', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService();
  });
  afterAll(async () => {
    await service?.close();
  });

  const data = async <T>(response: Response): Promise<T> => ((await response.json()) as { data: T }).data;

  async function signUp(): Promise<{ key: string; accountId: string }> {
    const issued = await data<Issued>(await service.request('POST', '/v2/self/signup', { body: { name: 'Esi', email: `esi-${Math.random().toString(36).slice(2)}@example.com` } }));
    const me = await data<{ account_id: string }>(await service.request('GET', '/v2/me', { key: issued.key }));
    return { key: issued.key, accountId: me.account_id };
  }

  it('issues legacy keys that work but are refused on account-scoped endpoints', async () => {
    const response = await service.request('POST', '/v2/admin/keys', { key: ADMIN_KEY, body: { name: 'old integration', tier: 'pro' } });
    expect(response.status).toBe(201);
    const legacy = await data<Issued>(response);
    expect(legacy).toMatchObject({ tier: 'pro', daily_limit: 20_000 });
    const me = await service.request('GET', '/v2/me', { key: legacy.key });
    expect(me.status).toBe(200);
    expect(await data(me)).toMatchObject({ account_id: null, tier: 'pro' });
    const banking = await service.request('GET', '/v2/banking/audit-log', { key: legacy.key });
    expect(banking.status).toBe(403);
    expect(await banking.json()).toMatchObject({ error: { code: 'ACCOUNT_KEY_REQUIRED' } });
  });

  it('keeps admin endpoints to the operator key', async () => {
    const { key, accountId } = await signUp();
    const refused = await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key, body: { tier: 'enterprise' } });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toMatchObject({ error: { code: 'INVALID_API_KEY' } });
    const unknown = await service.request('PUT', '/v2/admin/accounts/acct_doesnotexist/tier', { key: ADMIN_KEY, body: { tier: 'pro' } });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ error: { code: 'ACCOUNT_NOT_FOUND' } });
    const badTier = await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'platinum' } });
    expect(badTier.status).toBe(400);
    expect(await badTier.json()).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'tier' } });
  });

  it('changes the tier and with it the daily limit at once', async () => {
    const { key, accountId } = await signUp();
    const changed = await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'basic' } });
    expect(changed.status).toBe(200);
    expect(await data(changed)).toMatchObject({ tier: 'basic', daily_limit: 5000 });
    const me = await service.request('GET', '/v2/me', { key });
    expect(me.headers.get('x-ratelimit-limit')).toBe('5000');
    expect(await data(me)).toMatchObject({ tier: 'basic', daily_limit: 5000 });
  });

  it('answers 10 concurrent identical tier changes all with 200 (issue #10, item 10)', async () => {
    const { key, accountId } = await signUp();
    const responses = await Promise.all(Array.from({ length: 10 }, () => service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'pro' } })));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    for (const response of responses) expect(await data(response)).toMatchObject({ account_id: accountId, tier: 'pro', daily_limit: 20_000 });
    expect((await service.request('GET', '/v2/me', { key })).headers.get('x-ratelimit-limit')).toBe('20000');
  });

  it('opens the banking audit log only to provisioned accounts, from allowed IPs, with their own history only', async () => {
    const { key, accountId } = await signUp();
    const other = await signUp();
    const before = await service.request('GET', '/v2/banking/audit-log', { key });
    expect(before.status).toBe(403);
    expect(await before.json()).toMatchObject({ error: { code: 'BANKING_ACCESS_REQUIRED' } });

    expect((await service.request('POST', `/v2/admin/accounts/${accountId}/banking`, { key: ADMIN_KEY, body: { enabled: true } })).status).toBe(200);
    await service.request('GET', '/v2/me', { key, headers: { 'x-request-id': 'mine-1' } });
    await service.request('GET', '/v2/me', { key: other.key, headers: { 'x-request-id': 'theirs-1' } });
    const items = await eventually(async () => {
      const response = await service.request('GET', '/v2/banking/audit-log', { key });
      if (response.status !== 200) return undefined;
      const page = await data<{ items: Array<{ request_id: string; account_id: string; client_ip: string }> }>(response);
      return page.items.some((item) => item.request_id === 'mine-1') ? page.items : undefined;
    });
    expect(items.every((item) => item.account_id === accountId)).toBe(true);
    expect(items.map((item) => item.request_id)).not.toContain('theirs-1');

    const bad = await service.request('PUT', `/v2/admin/accounts/${accountId}/ip-allowlist`, { key: ADMIN_KEY, body: { entries: ['10.0.0.0/8', 'not-an-ip'] } });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'entries[1]' } });

    await service.request('PUT', `/v2/admin/accounts/${accountId}/ip-allowlist`, { key: ADMIN_KEY, body: { entries: ['203.0.113.7', '2001:db8::/32'] } });
    const outside = await service.request('GET', '/v2/banking/audit-log', { key });
    expect(outside.status).toBe(403);
    expect(await outside.json()).toMatchObject({ error: { code: 'IP_NOT_ALLOWED' } });

    await service.request('PUT', `/v2/admin/accounts/${accountId}/ip-allowlist`, { key: ADMIN_KEY, body: { entries: ['127.0.0.0/8'] } });
    expect((await service.request('GET', '/v2/banking/audit-log', { key })).status).toBe(200);

    const removed = await service.request('PUT', `/v2/admin/accounts/${accountId}/ip-allowlist`, { key: ADMIN_KEY, body: { entries: [] } });
    expect(await data(removed)).toMatchObject({ ip_allowlist: [], banking: true });
  });
});

describe('client IP behind a proxy', () => {
  it('takes the client IP from X-Forwarded-For for the allowlist only with TRUST_PROXY', async () => {
    for (const trustProxy of [true, false]) {
      const service = await bootService({ env: trustProxy ? { TRUST_PROXY: 'true' } : {} });
      try {
        const signup = await service.request('POST', '/v2/self/signup', { body: { name: 'Nii', email: 'nii@example.com' } });
        const key = ((await signup.json()) as { data: { key: string } }).data.key;
        const me = (await (await service.request('GET', '/v2/me', { key })).json()) as { data: { account_id: string } };
        await service.request('POST', `/v2/admin/accounts/${me.data.account_id}/banking`, { key: ADMIN_KEY, body: { enabled: true } });
        await service.request('PUT', `/v2/admin/accounts/${me.data.account_id}/ip-allowlist`, { key: ADMIN_KEY, body: { entries: ['203.0.113.0/24'] } });
        const response = await service.request('GET', '/v2/banking/audit-log', { key, headers: { 'x-forwarded-for': '203.0.113.7' } });
        expect(response.status).toBe(trustProxy ? 200 : 403);
      } finally {
        await service.close();
      }
    }
  });
});

describe('audit log pagination', () => {
  it('walks every entry exactly once with next_cursor, newest first, filtered by time', async () => {
    const service = await bootService();
    try {
      const since = new Date().toISOString();
      for (let index = 0; index < 7; index++) {
        await service.request('GET', '/v2/admin/audit?limit=1', { key: ADMIN_KEY, headers: { 'x-request-id': `page-${index}` } });
      }
      await eventually(async () => {
        const response = await service.request('GET', `/v2/admin/audit?account_id=platform&from=${encodeURIComponent(since)}&limit=500`, { key: ADMIN_KEY });
        const page = ((await response.json()) as { data: { items: Array<{ request_id: string }> } }).data;
        return page.items.filter((item) => item.request_id.startsWith('page-')).length === 7 ? true : undefined;
      });
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const query: string = `/v2/admin/audit?account_id=platform&from=${encodeURIComponent(since)}&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const page = ((await (await service.request('GET', query, { key: ADMIN_KEY })).json()) as { data: { items: Array<{ request_id: string; at: string }>; next_cursor: string | null } }).data;
        expect(page.items.length).toBeLessThanOrEqual(2);
        seen.push(...page.items.map((item) => item.request_id));
        cursor = page.next_cursor;
        pages++;
      } while (cursor && pages < 20);
      const ours = seen.filter((id) => id.startsWith('page-'));
      expect(ours).toEqual(['page-6', 'page-5', 'page-4', 'page-3', 'page-2', 'page-1', 'page-0']);
      expect(new Set(seen).size).toBe(seen.length);
      const badCursor = await service.request('GET', '/v2/admin/audit?cursor=garbage', { key: ADMIN_KEY });
      expect(badCursor.status).toBe(400);
    } finally {
      await service.close();
    }
  });
});
