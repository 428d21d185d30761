import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';

/**
 * Issue 31, item 3 (docs/adr/0045): while the event loop is behind, an
 * account's keyed requests take turns. The service runs in this test's
 * process, so the test makes the loop fall behind itself: a timer that holds
 * it 12 ms at a time keeps the service's lag average above FAIR_SHARE_LAG_MS.
 */
describe('turns by account while the loop is behind', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService({ env: { FAIR_SHARE_LAG_MS: '1', FAIR_SHARE_PER_TENANT: '1', FAIR_SHARE_MAX_WAITING: '1' } });
  });
  afterAll(async () => {
    await service?.close();
  });

  const enterpriseKey = async (): Promise<string> => {
    const email = `turns-${Math.random().toString(36).slice(2)}@example.com`;
    const key = ((await (await service.request('POST', '/v2/self/signup', { body: { name: 'Kwabena', email } })).json()) as { data: { key: string } }).data.key;
    const accountId = ((await (await service.request('GET', '/v2/me', { key })).json()) as { data: { account_id: string } }).data.account_id;
    expect((await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'enterprise' } })).status).toBe(200);
    return key;
  };

  /** Holds the loop 12 ms of every 15 while `work` runs. */
  async function behind<T>(work: () => Promise<T>): Promise<T> {
    const hold = setInterval(() => {
      const until = performance.now() + 12;
      while (performance.now() < until);
    }, 3);
    try {
      // Long enough for the average to pass the threshold.
      await new Promise((resolve) => setTimeout(resolve, 100));
      return await work();
    } finally {
      clearInterval(hold);
    }
  }

  it('serves one request of an account at a time, queues one, refuses the next, and does not hold another account', async () => {
    const [busy, other] = [await enterpriseKey(), await enterpriseKey()];
    // A 10,000-point bulk holds the account's one turn for a while; the GETs arrive while it is in flight.
    const items = Array.from({ length: 10_000 }, (_, index) => ({ lat: 5.5 + (index % 100) * 0.002, lng: -0.3 + Math.floor(index / 100) * 0.002 }));
    const [bulk, ...answers] = await behind(async () => {
      const first = service.request('POST', '/v2/hexcode/bulk', { key: busy, body: { items } });
      // Past the gate well before the GETs: the bulk's headers are read at once, its 500 kB and 10,000 points take longer.
      await new Promise((resolve) => setTimeout(resolve, 100));
      return Promise.all([first, service.request('GET', '/v2/usage', { key: busy }), service.request('GET', '/v2/usage', { key: busy }), service.request('GET', '/v2/usage', { key: other })]);
    });
    expect(bulk.status).toBe(200);
    // One in flight (the bulk) and one waiting (FAIR_SHARE_PER_TENANT 1, FAIR_SHARE_MAX_WAITING 1): the other is refused.
    expect(answers.slice(0, 2).map((answer) => answer.status).sort()).toEqual([200, 429]);
    expect(answers[2].status).toBe(200);
    const refused = answers.find((answer) => answer.status === 429)!;
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED', details: { reason: 'tenant_queue_full', max_waiting: 1 } } });
  });

  it('takes a request whose client leaves while it waits out of the queue, and counts it as 499', async () => {
    const key = await enterpriseKey();
    const items = Array.from({ length: 10_000 }, (_, index) => ({ lat: 5.6 + (index % 100) * 0.002, lng: -0.2 + Math.floor(index / 100) * 0.002 }));
    let bulkAnswered = false;
    const [bulk, after, stillInFlight] = await behind(async () => {
      const first = service.request('POST', '/v2/hexcode/bulk', { key, body: { items } }).finally(() => {
        bulkAnswered = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Waits behind the bulk (FAIR_SHARE_PER_TENANT 1), then its client leaves.
      const leaving = new AbortController();
      const left = fetch(`${service.url}/v2/usage`, { headers: { 'x-api-key': key }, signal: leaving.signal }).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 50));
      leaving.abort();
      expect(await left).toMatchObject({ name: 'AbortError' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      // FAIR_SHARE_MAX_WAITING is 1: had the one that left kept its place, this one would be refused.
      const inFlight = !bulkAnswered;
      return [await first, await service.request('GET', '/v2/usage', { key }), inFlight] as const;
    });
    expect(stillInFlight).toBe(true);
    expect(bulk.status).toBe(200);
    expect(after.status).toBe(200);
    // Answered in the per-IP gate, before the key guard: not an access in the audit trail; the metrics count it.
    const left = await eventually(async () => {
      const metrics = await (await service.request('GET', '/metrics', { key: ADMIN_KEY })).text();
      const line = metrics.split('\n').find((row) => row.startsWith('http_requests_total{') && row.includes('route="/v2/usage"') && row.includes('status="499"'));
      return line === undefined ? undefined : Number(line.split(' ').at(-1));
    });
    expect(left).toBe(1);
  });
});
