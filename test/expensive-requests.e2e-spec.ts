import { ADMIN_KEY, bootService, type Service } from './support/boot.js';
import { rawExchange } from './support/raw-http.js';

/**
 * Issue 31, item 2: one key's bulk calls held the event loop and counted one
 * request each (ping batches too: ADR 0042). A bulk call now counts its items against the quota, and a key
 * has at most EXPENSIVE_CONCURRENCY_PER_KEY (2) expensive requests in flight.
 */
describe('expensive requests: counted by items, bounded per key', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService();
  });
  afterAll(async () => {
    await service?.close();
  });

  const keyOfTier = async (tier: string): Promise<string> => {
    const email = `bulk-${Math.random().toString(36).slice(2)}@example.com`;
    const key = ((await (await service.request('POST', '/v2/self/signup', { body: { name: 'Abena', email } })).json()) as { data: { key: string } }).data.key;
    const accountId = ((await (await service.request('GET', '/v2/me', { key })).json()) as { data: { account_id: string } }).data.account_id;
    expect((await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier } })).status).toBe(200);
    return key;
  };
  const usage = async (key: string) => ((await (await service.request('GET', '/v2/usage', { key })).json()) as { data: { used: number; remaining: number } }).data;
  const points = (count: number) => ({ items: Array.from({ length: count }, (_, index) => ({ lat: 5.5 + (index % 100) * 0.002, lng: -0.3 + Math.floor(index / 100) * 0.002 })) });

  it('a bulk of N items uses N of the daily quota, and X-RateLimit-Remaining says so', async () => {
    const key = await keyOfTier('basic');
    const before = await usage(key);
    const response = await service.request('POST', '/v2/hexcode/bulk', { key, body: points(1234) });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { count: number } }).data.count).toBe(1234);
    // `before` counted the usage call itself.
    expect(Number(response.headers.get('x-ratelimit-remaining'))).toBe(before.remaining - 1234);
    // This bulk, and the usage call now.
    expect(await usage(key)).toMatchObject({ used: before.used + 1234 + 1 });
  });

  it('refuses a batch larger than the whole daily limit without using any of it', async () => {
    const key = await keyOfTier('free');
    const refused = await service.request('POST', '/v2/hexcode/bulk', { key, body: points(101) });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED', details: { reason: 'batch_over_quota', items: 101, daily_limit: 100 } } });
    expect((await usage(key)).used).toBe(2);
    expect((await service.request('POST', '/v2/hexcode/bulk', { key, body: points(97) })).status).toBe(200);
    const spent = await service.request('POST', '/v2/hexcode/bulk', { key, body: points(2) });
    expect(spent.status).toBe(429);
    expect(Number(spent.headers.get('retry-after'))).toBeGreaterThan(0);
    // The guard's refusal names the limit: the key's daily quota, of its tier (docs/adr/0060).
    expect(((await spent.json()) as { error: unknown }).error).toMatchObject({ code: 'RATE_LIMITED', details: { reason: 'quota', scope: 'key', tier: 'free', limit: 100, window_s: 86400 } });
  });

  it('refuses a key whose quota is spent before reading its bulk body, as the guard words it (ADR 0041)', async () => {
    const key = await keyOfTier('free');
    // Signup-time calls aside, the rest of the day's 100 in one bulk.
    const { remaining } = await usage(key);
    expect((await service.request('POST', '/v2/hexcode/bulk', { key, body: points(remaining) })).status).toBe(200);
    const spent = await service.request('POST', '/v2/hexcode/bulk', { key, body: points(1) });
    expect(spent.status).toBe(429);
    const answer = (await spent.json()) as { error: { code: string; message: string } };
    expect(answer.error).toMatchObject({
      code: 'RATE_LIMITED',
      message: expect.stringContaining('daily quota exhausted: the free tier allows 100 requests per rolling 24 h'),
      details: { reason: 'quota', scope: 'key', tier: 'free', limit: 100 },
    });
    expect(spent.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(spent.headers.get('retry-after'))).toBeGreaterThan(0);
    // A declared 900 kB body that never comes: the refusal does not wait for it.
    const raw = await rawExchange(service.url, [`POST /v2/hexcode/bulk HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 900000\r\n\r\n{"items":[`], { deadlineMs: 3000 });
    expect(raw.status).toBe(429);
    expect(raw.headers.connection).toBe('close');
    expect(JSON.parse(raw.body)).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
  });

  it('a ping batch of N pings uses N of the daily quota, whatever their outcomes; a single ping uses 1', async () => {
    const key = await keyOfTier('basic');
    expect((await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: 'batch-1' } })).status).toBe(200);
    const ping = (index: number) => ({ customer_id: index % 2 === 0 ? 'batch-1' : 'no-consent', lat: 5.55 + index * 1e-5, lng: -0.21, recorded_at: new Date(Date.now() - (1000 - index) * 1000).toISOString() });
    const before = await usage(key);
    const batch = await service.request('POST', '/v2/monitoring/pings', { key, body: { pings: Array.from({ length: 300 }, (_, index) => ping(index)) } });
    expect(batch.status).toBe(200);
    expect(await batch.json()).toMatchObject({ data: { accepted: 150, refused: 150 } });
    expect(Number(batch.headers.get('x-ratelimit-remaining'))).toBe(before.remaining - 300);
    const single = await service.request('POST', '/v2/monitoring/pings', { key, body: ping(400) });
    expect(single.status).toBe(200);
    expect(Number(single.headers.get('x-ratelimit-remaining'))).toBe(before.remaining - 301);
    // The usage call before, the batch's 300, the single ping and this call.
    expect(await usage(key)).toMatchObject({ used: before.used + 300 + 1 + 1 });
    // Ping batches hold no expensive slot: three at once from one key are all served.
    const three = await Promise.all([0, 1, 2].map((round) => service.request('POST', '/v2/monitoring/pings', { key, body: { pings: Array.from({ length: 50 }, (_, index) => ping(500 + round * 50 + index)) } })));
    expect(three.map((response) => response.status)).toEqual([200, 200, 200]);
  });

  it('refuses a ping batch larger than the whole daily limit without using any of it', async () => {
    const key = await keyOfTier('free');
    const refused = await service.request('POST', '/v2/monitoring/pings', { key, body: { pings: Array.from({ length: 101 }, () => ({ customer_id: 'c', lat: 5.55, lng: -0.21 })) } });
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED', details: { reason: 'batch_over_quota', items: 101, daily_limit: 100 } } });
    // The signup-time call and this one.
    expect((await usage(key)).used).toBe(2);
  });

  it('answers a third concurrent bulk from one key 429 with Retry-After, uses no quota for it, and frees the slots', async () => {
    const key = await keyOfTier('enterprise');
    const other = await keyOfTier('enterprise');
    const body = points(10_000);
    const responses = await Promise.all(Array.from({ length: 5 }, () => service.request('POST', '/v2/hexcode/bulk', { key, body })));
    const answers = await Promise.all(responses.map(async (response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), json: (await response.json()) as { error?: { code: string; details?: { reason: string } } } })));
    const served = answers.filter((answer) => answer.status === 200).length;
    const refused = answers.filter((answer) => answer.status === 429);
    expect(served).toBeGreaterThanOrEqual(2);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(served + refused.length).toBe(5);
    for (const answer of refused) {
      expect(answer.json.error).toMatchObject({ code: 'RATE_LIMITED', details: { reason: 'concurrency', max_concurrent: 2 } });
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }
    // Three signup-time calls aside, only the served bulks counted.
    expect((await usage(key)).used).toBe(2 + served * 10_000);
    // Another key is not held by it, and the slots are free again once the answers are sent.
    expect((await service.request('POST', '/v2/hexcode/bulk', { key: other, body: points(10) })).status).toBe(200);
    expect((await service.request('POST', '/v2/hexcode/bulk', { key, body: points(10) })).status).toBe(200);
  });
});
