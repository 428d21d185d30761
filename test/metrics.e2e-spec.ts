import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';

type Failure = { error: { code: string } };

/** ADR 0028: `GET /metrics` in Prometheus format, for the admin key only. */
describe('GET /metrics', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService();
  }, 60_000);

  afterAll(async () => {
    await service.close();
  });

  /** The value of one sample line (`name{labels} value`) whose labels include all of `labels`; 0 when absent. */
  async function sample(name: string, labels: Record<string, string>): Promise<number> {
    const response = await service.request('GET', '/metrics', { key: ADMIN_KEY });
    expect(response.status).toBe(200);
    const text = await response.text();
    for (const line of text.split('\n')) {
      if (!line.startsWith(`${name}{`)) continue;
      if (Object.entries(labels).every(([label, value]) => line.includes(`${label}="${value}"`))) return Number(line.split(' ').at(-1));
    }
    return 0;
  }

  it('refuses requests without the admin key, in the envelope', async () => {
    const anonymous = await service.request('GET', '/metrics');
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as Failure).error.code).toBe('INVALID_API_KEY');
    const wrong = await service.request('GET', '/metrics', { key: 'sk_live_not-the-admin-key' });
    expect(wrong.status).toBe(401);
  });

  it('is 403 ADMIN_KEY_REQUIRED when no admin key is configured', async () => {
    const keyless = await bootService({ env: { ADMIN_API_KEY: '' } });
    try {
      const response = await keyless.request('GET', '/metrics', { key: ADMIN_KEY });
      expect(response.status).toBe(403);
      expect(((await response.json()) as Failure).error.code).toBe('ADMIN_KEY_REQUIRED');
    } finally {
      await keyless.close();
    }
  }, 60_000);

  it('serves the Prometheus text format', async () => {
    const response = await service.request('GET', '/metrics', { key: ADMIN_KEY });
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    expect(text).toMatch(/# TYPE http_request_duration_seconds histogram/);
    expect(text).toMatch(/# TYPE event_store_append_duration_seconds histogram/);
    expect(text).toMatch(/# TYPE queue_jobs_run_total counter/);
    expect(text).toMatch(/log_follower_lag_positions\{follower="[^"]+"\} \d+/);
    expect(text).toMatch(/queue_depth\{queue="mail"\} \d+/);
    expect(text).toMatch(/queue_depth\{queue="webhooks"\} \d+/);
    expect(text).toMatch(/# TYPE thread_pool_jobs_total counter/);
    // The test service's stores are embedded: their write queues are counted (idle here).
    expect(text).toMatch(/^lmdb_transactions_waiting 0$/m);
  });

  it("serves node's own metrics: the event loop's delay since the last scrape and garbage-collection pauses", async () => {
    // Each scrape starts the delay's window again (sampled every 10 ms): give this one some samples.
    await new Promise((resolve) => setTimeout(resolve, 200));
    const text = await (await service.request('GET', '/metrics', { key: ADMIN_KEY })).text();
    const delay = (name: string) => Number(/^nodejs_eventloop_lag_(\w+)_seconds (\S+)$/m.exec(text.split('\n').find((line) => line.startsWith(`nodejs_eventloop_lag_${name}_seconds `)) ?? '')?.[2]);
    // Percentiles in seconds: below a second on an idle test service, and p99 at least p50.
    expect(delay('p50')).toBeGreaterThan(0);
    expect(delay('p50')).toBeLessThan(1);
    expect(delay('p99')).toBeGreaterThanOrEqual(delay('p50'));
    expect(text).toMatch(/# TYPE nodejs_gc_duration_seconds histogram/);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
  });

  it('counts requests per route pattern and status, never per raw URL', async () => {
    const labels = { method: 'GET', route: '/v2/reverse', status: '200' };
    const before = await sample('http_requests_total', labels);
    const histogramBefore = await sample('http_request_duration_seconds_count', labels);
    for (const lat of ['5.6037', '5.61', '5.62']) {
      expect((await service.request('GET', `/v2/reverse?lat=${lat}&lng=-0.1870`, { key: ADMIN_KEY })).status).toBe(200);
    }
    expect(await sample('http_requests_total', labels)).toBe(before + 3);
    expect(await sample('http_request_duration_seconds_count', labels)).toBe(histogramBefore + 3);
    await service.request('GET', '/v2/no-such-route/abc123');
    const text = await (await service.request('GET', '/metrics', { key: ADMIN_KEY })).text();
    expect(text).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"\}/);
    expect(text).not.toContain('abc123');
    expect(text).not.toContain('lat=');
  });

  it('times event-store appends', async () => {
    const before = await sample('event_store_append_duration_seconds_count', { outcome: 'ok' });
    // An authenticated request's access entry goes to the journal at once and to the event store right after
    // (ADR 0004, "The journal"), so the append is timed shortly after the answer.
    await service.request('GET', '/v2/admin/audit?limit=1', { key: ADMIN_KEY });
    await eventually(async () => ((await sample('event_store_append_duration_seconds_count', { outcome: 'ok' })) > before ? true : undefined));
  });
  it('goes through the operator access level and is recorded in the access audit like any admin request', async () => {
    const scraped = await service.request('GET', '/metrics', { key: ADMIN_KEY, headers: { 'x-request-id': 'metrics-scrape-1' } });
    expect(scraped.status).toBe(200);
    const audited = await eventually(async () => {
      const response = await service.request('GET', '/v2/admin/audit?account_id=platform', { key: ADMIN_KEY });
      const body = (await response.json()) as { data: { items: Array<{ request_id: string; path: string; status: number }> } };
      return body.data.items.find((item) => item.request_id === 'metrics-scrape-1');
    }, 10_000);
    expect(audited).toMatchObject({ path: '/metrics', status: 200 });
    // A refused scrape is answered as before (no key is a wrong key here) and leaves no entry: it names no caller.
    const refused = await service.request('GET', '/metrics', { headers: { 'x-request-id': 'metrics-scrape-2' } });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as Failure & { error: { request_id: string } }).error.request_id).toBe('metrics-scrape-2');
  });
});
