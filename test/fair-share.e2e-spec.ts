import net from 'node:net';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';
import { rawExchange } from './support/raw-http.js';

/**
 * Fairness at the edge (issue 48, item 3): a key's expensive requests are
 * capped (EXPENSIVE_CONCURRENCY_PER_KEY, shared by the api processes through
 * Redis in production) before their body is read, and an overloaded process
 * sheds requests with 503 SERVICE_BUSY and Retry-After (@fastify/under-pressure)
 * while its health checks still answer.
 */
const enterpriseKey = async (service: Service): Promise<string> => {
  const email = `edge-${Math.random().toString(36).slice(2)}@example.com`;
  const key = ((await (await service.request('POST', '/v2/self/signup', { body: { name: 'Kwabena', email } })).json()) as { data: { key: string } }).data.key;
  const accountId = ((await (await service.request('GET', '/v2/me', { key })).json()) as { data: { account_id: string } }).data.account_id;
  expect((await service.request('PUT', `/v2/admin/accounts/${accountId}/tier`, { key: ADMIN_KEY, body: { tier: 'enterprise' } })).status).toBe(200);
  return key;
};

/** A bulk request whose headers and first bytes are sent and whose declared body never comes: it holds its slot while the socket is open. */
function holdingBulk(url: string, key: string): net.Socket {
  const { hostname, port } = new URL(url);
  const socket = net.connect(Number(port), hostname);
  socket.on('error', () => undefined);
  socket.write(bulkHead(key));
  return socket;
}

const bulkHead = (key: string) => `POST /v2/hexcode/bulk HTTP/1.1\r\nHost: x\r\nX-API-Key: ${key}\r\nContent-Type: application/json\r\nContent-Length: 900000\r\n\r\n{"items":[`;
const points = (count: number) => ({ items: Array.from({ length: count }, (_, index) => ({ lat: 5.5 + (index % 100) * 0.002, lng: -0.3 + Math.floor(index / 100) * 0.002 })) });

describe('per-key caps of expensive requests, before the body is read', () => {
  let service: Service;
  beforeAll(async () => {
    service = await bootService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('refuses a key at its cap 429 without reading the body, holds no other key, and frees the slots when the clients go', async () => {
    const [key, other] = [await enterpriseKey(service), await enterpriseKey(service)];
    const usedBefore = ((await (await service.request('GET', '/v2/usage', { key })).json()) as { data: { used: number } }).data.used;
    // Two bulks whose bodies never come hold the key's two slots (EXPENSIVE_CONCURRENCY_PER_KEY 2).
    const holders = [holdingBulk(service.url, key), holdingBulk(service.url, key)];
    try {
      // A third is refused as soon as both holders are in (a probe that got in instead holds a slot until its deadline, then leaves).
      const refused = await eventually(async () => {
        const probe = await rawExchange(service.url, [bulkHead(key)], { deadlineMs: 1500 });
        return probe.status === 429 ? probe : undefined;
      }, 30_000);
      // Answered without its 900 kB body, which is never sent, and the connection closed after it.
      expect(refused.headers.connection).toBe('close');
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(JSON.parse(refused.body)).toMatchObject({ success: false, error: { code: 'RATE_LIMITED', details: { reason: 'concurrency', max_concurrent: 2 } } });
      // Another key is not held by them.
      expect((await service.request('POST', '/v2/hexcode/bulk', { key: other, body: points(10) })).status).toBe(200);
    } finally {
      for (const holder of holders) holder.destroy();
    }
    // The clients gone, their slots come back: a bulk of the key is served again.
    const served = await eventually(async () => {
      const response = await service.request('POST', '/v2/hexcode/bulk', { key, body: points(10) });
      return response.status === 200 ? response : undefined;
    }, 30_000);
    expect(((await served.json()) as { data: { count: number } }).data.count).toBe(10);
    // Refusals and bodies never read used none of the quota: the usage call, the 10-point bulk, and this call.
    const usedAfter = ((await (await service.request('GET', '/v2/usage', { key })).json()) as { data: { used: number } }).data.used;
    expect(usedAfter).toBe(usedBefore + 1 + 10);
  });
});

describe('load shedding: 503 SERVICE_BUSY with Retry-After while the event loop is behind', () => {
  let service: Service;
  beforeAll(async () => {
    // A threshold no busy loop stays under: the test holds the service's loop (it runs in this process).
    service = await bootService({ env: { OVERLOAD_EVENT_LOOP_DELAY_MS: '1', OVERLOAD_RETRY_AFTER_SECONDS: '7' } });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('sheds an API call in the envelope, and still answers the health checks and the metrics', async () => {
    const shed = await eventually(async () => {
      const until = performance.now() + 300;
      while (performance.now() < until);
      const response = await service.request('GET', '/v2/weather/alerts');
      if (response.status !== 503) return undefined;
      // Under the same sample (the plugin samples once a second): the health checks are exempt.
      const [health, ready, metrics] = await Promise.all([fetch(`${service.url}/health`), fetch(`${service.url}/health/ready`), fetch(`${service.url}/metrics`, { headers: { 'x-api-key': ADMIN_KEY } })]);
      return { response, body: (await response.json()) as unknown, health: health.status, ready: ready.status, metrics: metrics.status };
    }, 30_000);
    expect(shed.response.headers.get('retry-after')).toBe('7');
    expect(shed.response.headers.get('x-request-id')).toBeTruthy();
    expect(shed.body).toMatchObject({ success: false, error: { code: 'SERVICE_BUSY', message: expect.stringContaining('event loop'), request_id: shed.response.headers.get('x-request-id') } });
    expect([shed.health, shed.ready, shed.metrics]).toEqual([200, 200, 200]);
  });
});

describe('load shedding: 503 SERVICE_BUSY over the heap threshold, before the body is read', () => {
  let service: Service;
  beforeAll(async () => {
    // 1 MB: any process is over it, from the plugin's first sample on.
    service = await bootService({ env: { OVERLOAD_HEAP_USED_MB: '1' } });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('answers every API call 503 with Retry-After, a declared body unread, while /health/ready answers 200', async () => {
    const shed = await eventually(async () => {
      const response = await service.request('GET', '/v2/weather/alerts');
      return response.status === 503 ? response : undefined;
    }, 30_000);
    expect(shed.headers.get('retry-after')).toBe('5');
    expect(await shed.json()).toMatchObject({ success: false, error: { code: 'SERVICE_BUSY', message: expect.stringContaining('memory') } });
    // A 900 kB body declared and never sent: the answer does not wait for it.
    const raw = await rawExchange(service.url, [bulkHead('no-such-key')], { deadlineMs: 3000 });
    expect(raw.status).toBe(503);
    expect(JSON.parse(raw.body)).toMatchObject({ success: false, error: { code: 'SERVICE_BUSY' } });
    expect((await fetch(`${service.url}/health/ready`)).status).toBe(200);
    expect((await fetch(`${service.url}/health/live`)).status).toBe(200);
  });
});
