import { verifyChain, type ApiAccessRecorded } from '../libs/audit/src/index.js';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';

describe('platform over HTTP (embedded adapters)', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('answers /health bare, outside the envelope', async () => {
    const response = await service.request('GET', '/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers /health/live and /health/ready bare (docs/adr/0033)', async () => {
    const live = await service.request('GET', '/health/live');
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'alive' });
    // STARTER_DATA is off in tests: no dataset needs to be live, the store only has to be readable.
    const ready = await service.request('GET', '/health/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok' });
  });

  it('serves an OpenAPI 3.1 document generated from the controllers', async () => {
    const response = await service.request('GET', '/v2/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Record<string, unknown>> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths['/v2/admin/audit'])).toContain('get');
    expect(document.paths['/v2/weather/alerts'].get).toMatchObject({ responses: { '200': expect.anything() } });
  });

  it('answers an unknown path with 404 NOT_FOUND in the envelope', async () => {
    const response = await service.request('GET', '/v2/no-such-thing');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
  });

  it('answers a wrong method with 405 and the allowed methods', async () => {
    const response = await service.request('DELETE', '/v2/admin/audit', { key: ADMIN_KEY });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toContain('GET');
    expect(await response.json()).toMatchObject({ success: false, error: { code: 'METHOD_NOT_ALLOWED' } });
  });

  it('requires a key and tells a missing one from a wrong one', async () => {
    const missing = await service.request('GET', '/v2/admin/audit');
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error: { code: 'MISSING_API_KEY' } });
    const wrong = await service.request('GET', '/v2/admin/audit', { key: 'not-the-key' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: { code: 'INVALID_API_KEY' } });
  });

  it('names the field of a bad query parameter', async () => {
    const response = await service.request('GET', '/v2/admin/audit?limit=lots', { key: ADMIN_KEY });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ success: false, error: { code: 'INVALID_PARAM', field: 'limit' } });
    const unknown = await service.request('GET', '/v2/admin/audit?colour=red', { key: ADMIN_KEY });
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'colour' } });
  });

  it('refuses a body that is not JSON, and one that is too large, in the envelope', async () => {
    const broken = await service.request('POST', '/v2/monitoring/pings', { key: ADMIN_KEY, rawBody: '{"customer_id": ' });
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ success: false, error: { code: 'INVALID_JSON' } });
    const huge = await service.request('POST', '/v2/monitoring/pings', { key: ADMIN_KEY, rawBody: JSON.stringify({ pad: 'x'.repeat(2 * 1024 * 1024) }) });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('echoes a well-formed request id and makes one up otherwise', async () => {
    const given = await service.request('GET', '/health', { headers: { 'x-request-id': 'trace-42' } });
    expect(given.headers.get('x-request-id')).toBe('trace-42');
    const made = await service.request('GET', '/health', { headers: { 'x-request-id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('records every authenticated request in a hash-chained access log served by /v2/admin/audit', async () => {
    const ids = Array.from({ length: 20 }, (_, index) => `audit-${index}`);
    const statuses = await Promise.all(
      ids.map(async (id) => (await service.request('GET', '/v2/admin/audit?limit=1', { key: ADMIN_KEY, headers: { 'x-request-id': id } })).status),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);

    const logged = await eventually(async () => {
      const response = await service.request('GET', '/v2/admin/audit?account_id=platform&limit=500', { key: ADMIN_KEY });
      const body = (await response.json()) as { data: { items: Array<{ request_id: string; status: number; path: string; key_prefix: string }> } };
      const seen = body.data.items.filter((item) => ids.includes(item.request_id));
      return seen.length === ids.length ? seen : undefined;
    });
    expect(logged[0]).toMatchObject({ status: 200, path: '/v2/admin/audit', key_prefix: `${ADMIN_KEY.slice(0, 8)}…` });
    expect(JSON.stringify(logged)).not.toContain(ADMIN_KEY);

    const chain = await service.runtime.backends.events.readStream('access_log-platform');
    expect(verifyChain(chain.map((event) => event.data as unknown as ApiAccessRecorded['data']))).toMatchObject({ ok: true });
  });

  it('does not audit public or unauthenticated requests', async () => {
    await service.request('GET', '/health', { headers: { 'x-request-id': 'public-1' } });
    await service.request('GET', '/v2/admin/audit', { key: 'wrong', headers: { 'x-request-id': 'unauth-1' } });
    await service.request('GET', '/v2/admin/audit', { key: ADMIN_KEY, headers: { 'x-request-id': 'marker-1' } });
    const chain = await eventually(async () => {
      const events = await service.runtime.backends.events.readStream('access_log-platform');
      return events.some((event) => event.data.request_id === 'marker-1') ? events : undefined;
    });
    const requestIds = chain.map((event) => event.data.request_id);
    expect(requestIds).not.toContain('public-1');
    expect(requestIds).not.toContain('unauth-1');
  });
});

describe('restart', () => {
  it('keeps its state across a restart and continues the audit chain', async () => {
    const first = await bootService();
    await first.request('GET', '/v2/admin/audit', { key: ADMIN_KEY, headers: { 'x-request-id': 'before-restart' } });
    await first.close();

    const second = await bootService({ dataDir: first.dataDir });
    try {
      await second.request('GET', '/v2/admin/audit', { key: ADMIN_KEY, headers: { 'x-request-id': 'after-restart' } });
      const items = await eventually(async () => {
        const response = await second.request('GET', '/v2/admin/audit?account_id=platform', { key: ADMIN_KEY });
        const body = (await response.json()) as { data: { items: Array<{ request_id: string }> } };
        const ids = body.data.items.map((item) => item.request_id);
        return ids.includes('after-restart') && ids.includes('before-restart') ? ids : undefined;
      });
      expect(items.indexOf('after-restart')).toBeLessThan(items.indexOf('before-restart'));
      const chain = await second.runtime.backends.events.readStream('access_log-platform');
      expect(verifyChain(chain.map((event) => event.data as unknown as ApiAccessRecorded['data'])).ok).toBe(true);
    } finally {
      await second.close();
    }
  });
});
