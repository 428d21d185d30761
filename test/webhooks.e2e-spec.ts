import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { SSRF_URL_FORMS } from '../libs/webhooks/src/testing/ssrf-forms.js';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';

/** interface.md, "Webhook delivery", "Events", "Headers on every delivery" and "Receiver rules". */

interface Delivery {
  method?: string;
  headers: http.IncomingHttpHeaders;
  /** The exact bytes received, before any JSON parsing (receiver rule 1). */
  raw: Buffer;
}

/** A local receiver that answers each request with the next scripted status (200 once the script is used up). */
async function startReceiver(answer: (delivery: Delivery) => number = () => 200) {
  const deliveries: Delivery[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const delivery = { method: request.method, headers: request.headers, raw: Buffer.concat(chunks) };
      deliveries.push(delivery);
      response.writeHead(answer(delivery)).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    deliveries,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/location`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const hmac = (secret: string, data: Buffer | string) => createHmac('sha256', secret).update(data).digest('hex');
const sameHex = (a: string | undefined, b: string) => typeof a === 'string' && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * The receiver rules as a receiver would code them: verify the raw bytes in
 * constant time, and accept V2 only within 300 s of X-Webhook-Timestamp.
 */
function verifyV2(delivery: Delivery, secret: string, nowSeconds: number): 'ok' | 'bad-signature' | 'stale' {
  const timestamp = String(delivery.headers['x-webhook-timestamp']);
  const expected = hmac(secret, Buffer.concat([Buffer.from(`${timestamp}.`), delivery.raw]));
  if (!sameHex(delivery.headers['x-webhook-signature-v2'] as string | undefined, expected)) return 'bad-signature';
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > 300) return 'stale';
  return 'ok';
}

const json = async <T = Record<string, unknown>>(response: Response): Promise<T> => (await response.json()) as T;
const data = async <T = Record<string, unknown>>(response: Response): Promise<T> => (await json<{ data: T }>(response)).data;

interface DeliveryItem {
  delivery_id: string;
  abandoned_reason: string | null;
  event_type: string;
  customer_id: string;
  event_timestamp: string;
  status: string;
  attempt_count: number;
  next_attempt_at: string | null;
  attempts: Array<{ attempt: number; attempt_id: string; status_code: number | null; outcome: string; manual: boolean; error: string | null }>;
}

async function signUp(service: Service): Promise<string> {
  const response = await service.request('POST', '/v2/self/signup', { body: { name: 'Kofi', email: `kofi-${randomBytes(6).toString('hex')}@example.com` } });
  return (await data<{ key: string }>(response)).key;
}

async function revoke(service: Service, key: string, customerId: string): Promise<string> {
  expect((await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: customerId } })).status).toBe(200);
  const revoked = await service.request('POST', '/v2/consent/revoke', { key, body: { customer_id: customerId } });
  expect(revoked.status).toBe(200);
  return (await data<{ revoked_at: string }>(revoked)).revoked_at;
}

async function deliveriesOf(service: Service, key: string, query = ''): Promise<DeliveryItem[]> {
  const response = await service.request('GET', `/v2/webhooks/deliveries${query}`, { key });
  expect(response.status).toBe(200);
  return (await data<{ items: DeliveryItem[]; next_cursor: string | null }>(response)).items;
}

describe('webhooks over HTTP (private receivers allowed, as in NODE_ENV=test)', () => {
  let service: Service;

  beforeAll(async () => {
    // Short retry delays through configuration: an immediate retry, then 300 ms, then 600 ms.
    service = await bootService({ env: { WEBHOOK_RETRY_DELAYS_MS: '0,300,600', WEBHOOK_TIMEOUT_MS: '2000' } });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('retries a receiver that fails twice, with a new delivery id and valid signatures each time, and lists the three attempts', async () => {
    const statuses = [500, 503];
    const receiver = await startReceiver(() => statuses.shift() ?? 200);
    try {
      const key = await signUp(service);
      const secret = `whsec_${randomBytes(16).toString('hex')}`;
      const configured = await service.request('POST', '/v2/webhooks/configure', { key, body: { url: receiver.url, secret, event_types: ['consent_revoked'] } });
      expect(configured.status).toBe(200);
      const config = await data(configured);
      expect(config).toEqual({ url: receiver.url, event_types: ['consent_revoked'], secret_length: secret.length, configured_at: expect.any(String) });
      expect(JSON.stringify(config)).not.toContain(secret);

      const revokedAt = await revoke(service, key, 'cust-7');
      await eventually(async () => (receiver.deliveries.length >= 3 ? true : undefined), 10_000);

      const ids = receiver.deliveries.map((delivery) => delivery.headers['x-webhook-delivery']);
      expect(new Set(ids).size).toBe(3);
      for (const delivery of receiver.deliveries) {
        expect(delivery.method).toBe('POST');
        expect(delivery.headers['content-type']).toBe('application/json');
        expect(delivery.headers['x-webhook-event']).toBe('consent_revoked');
        expect(sameHex(delivery.headers['x-webhook-signature'] as string, hmac(secret, delivery.raw))).toBe(true);
        expect(verifyV2(delivery, secret, Math.floor(Date.now() / 1000))).toBe('ok');
        // The payload timestamp is the event's own time, the same on every attempt.
        expect(JSON.parse(delivery.raw.toString('utf8'))).toEqual({ event: 'consent_revoked', customer_id: 'cust-7', timestamp: revokedAt });
      }

      const [item] = await eventually(async () => {
        const items = await deliveriesOf(service, key);
        return items[0]?.status === 'delivered' ? items : undefined;
      });
      expect(item).toMatchObject({ event_type: 'consent_revoked', customer_id: 'cust-7', event_timestamp: revokedAt, attempt_count: 3, next_attempt_at: null });
      expect(item.attempts.map((attempt) => [attempt.attempt, attempt.status_code, attempt.outcome])).toEqual([
        [1, 500, 'failed'],
        [2, 503, 'failed'],
        [3, 200, 'delivered'],
      ]);
      expect(item.attempts.map((attempt) => attempt.attempt_id)).toEqual(ids);

      // A manual re-send of a delivered delivery: a fourth attempt, a fourth delivery id.
      const retried = await service.request('POST', `/v2/webhooks/retry/${item.delivery_id}`, { key });
      expect(retried.status).toBe(202);
      expect(await data(retried)).toMatchObject({ delivery_id: item.delivery_id, status: 'attempted' });
      await eventually(async () => (receiver.deliveries.length >= 4 ? true : undefined));
      expect(new Set(receiver.deliveries.map((delivery) => delivery.headers['x-webhook-delivery'])).size).toBe(4);
      const [after] = await eventually(async () => {
        const items = await deliveriesOf(service, key);
        return items[0]?.attempt_count === 4 ? items : undefined;
      });
      expect(after.attempts[3]).toMatchObject({ attempt: 4, manual: true, status_code: 200 });

      // Another account cannot see or re-send it; an unknown id is 404 too; a malformed one is 400.
      const stranger = await signUp(service);
      expect(await deliveriesOf(service, stranger)).toEqual([]);
      const foreign = await service.request('POST', `/v2/webhooks/retry/${item.delivery_id}`, { key: stranger });
      expect(foreign.status).toBe(404);
      expect(await json(foreign)).toMatchObject({ error: { code: 'WEBHOOK_DELIVERY_NOT_FOUND' } });
      const unknown = await service.request('POST', `/v2/webhooks/retry/dlv_${'0'.repeat(32)}`, { key });
      expect(unknown.status).toBe(404);
      const malformed = await service.request('POST', '/v2/webhooks/retry/not-an-id', { key });
      expect(malformed.status).toBe(400);
      expect(await json(malformed)).toMatchObject({ error: { code: 'INVALID_PARAM', field: 'deliveryId' } });
    } finally {
      await receiver.close();
    }
  });

  it('answers 200 to ten identical configurations sent at once (issue #10, item 10)', async () => {
    const key = await signUp(service);
    const body = { url: 'https://hooks.example.com/concurrent', secret: 'a-long-enough-secret', event_types: ['drift'] };
    const responses = await Promise.all(Array.from({ length: 10 }, () => service.request('POST', '/v2/webhooks/configure', { key, body })));
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    expect(await data(await service.request('GET', '/v2/webhooks', { key }))).toMatchObject({ url: body.url, event_types: ['drift'], secret_length: body.secret.length });
  });

  it('says retries_exhausted once a failing delivery has used up its schedule (issue #10, item 12c)', async () => {
    const receiver = await startReceiver(() => 500);
    try {
      const key = await signUp(service);
      await service.request('POST', '/v2/webhooks/configure', { key, body: { url: receiver.url, secret: 'a-long-enough-secret', event_types: ['consent_revoked'] } });
      await revoke(service, key, 'cust-exhausted');
      // WEBHOOK_RETRY_DELAYS_MS=0,300,600: four attempts in all.
      const [item] = await eventually(async () => {
        const items = await deliveriesOf(service, key);
        return items[0]?.attempt_count === 4 ? items : undefined;
      }, 10_000);
      expect(item).toMatchObject({ status: 'failed', next_attempt_at: null, abandoned_reason: 'retries_exhausted' });
    } finally {
      await receiver.close();
    }
  });

  it('lets a receiver verify V2 within 300 s and reject the same request replayed later or re-stamped', async () => {
    const receiver = await startReceiver();
    try {
      const key = await signUp(service);
      const secret = `whsec_${randomBytes(16).toString('hex')}`;
      await service.request('POST', '/v2/webhooks/configure', { key, body: { url: receiver.url, secret, event_types: ['consent_revoked', 'drift'] } });
      await revoke(service, key, 'cust-v2');
      const [delivery] = await eventually(async () => (receiver.deliveries.length > 0 ? receiver.deliveries : undefined));
      const sentAt = Number(delivery.headers['x-webhook-timestamp']);
      expect(Math.abs(Math.floor(Date.now() / 1000) - sentAt)).toBeLessThanOrEqual(300);

      expect(verifyV2(delivery, secret, sentAt + 300)).toBe('ok');
      expect(verifyV2(delivery, secret, sentAt + 301)).toBe('stale');
      expect(verifyV2(delivery, secret, sentAt - 301)).toBe('stale');
      // Re-stamping an old capture with a fresh timestamp breaks V2.
      const restamped = { ...delivery, headers: { ...delivery.headers, 'x-webhook-timestamp': String(sentAt + 3600) } };
      expect(verifyV2(restamped, secret, sentAt + 3600)).toBe('bad-signature');
      // So does a changed body, and the wrong secret.
      expect(verifyV2({ ...delivery, raw: Buffer.from(delivery.raw.toString('utf8').replace('cust-v2', 'cust-xx')) }, secret, sentAt)).toBe('bad-signature');
      expect(verifyV2(delivery, 'another-secret-0123456789', sentAt)).toBe('bad-signature');
    } finally {
      await receiver.close();
    }
  });

  it('delivers only subscribed event types: the default is drift alone', async () => {
    const receiver = await startReceiver();
    try {
      const key = await signUp(service);
      const configured = await service.request('POST', '/v2/webhooks/configure', { key, body: { url: receiver.url, secret: 'a-long-enough-secret' } });
      expect(await data(configured)).toMatchObject({ event_types: ['drift'] });
      expect(await data(await service.request('GET', '/v2/webhooks', { key }))).toMatchObject({ url: receiver.url, event_types: ['drift'], secret_length: 20 });
      await revoke(service, key, 'cust-default');
      // Another account subscribed to consent_revoked gets its delivery: by then this one's would have been queued too.
      const other = await startReceiver();
      try {
        const otherKey = await signUp(service);
        await service.request('POST', '/v2/webhooks/configure', { key: otherKey, body: { url: other.url, secret: 'a-long-enough-secret', event_types: ['consent_revoked'] } });
        await revoke(service, otherKey, 'cust-default');
        await eventually(async () => (other.deliveries.length > 0 ? true : undefined));
      } finally {
        await other.close();
      }
      expect(receiver.deliveries).toHaveLength(0);
      expect(await deliveriesOf(service, key)).toEqual([]);
    } finally {
      await receiver.close();
    }
  });

  it('answers 404 WEBHOOK_NOT_CONFIGURED before configuration and after removal', async () => {
    const key = await signUp(service);
    const none = await service.request('GET', '/v2/webhooks', { key });
    expect(none.status).toBe(404);
    expect(await json(none)).toMatchObject({ error: { code: 'WEBHOOK_NOT_CONFIGURED' } });
    await service.request('POST', '/v2/webhooks/configure', { key, body: { url: 'https://hooks.example.com/in', secret: 'a-long-enough-secret' } });
    expect((await service.request('DELETE', '/v2/webhooks', { key })).status).toBe(200);
    expect((await service.request('GET', '/v2/webhooks', { key })).status).toBe(404);
  });

  it.each([
    ['no url', { secret: 'a-long-enough-secret' }, 'url'],
    ['an ftp url', { url: 'ftp://hooks.example.com/', secret: 'a-long-enough-secret' }, 'url'],
    ['a url that is not one', { url: 'not a url', secret: 'a-long-enough-secret' }, 'url'],
    ['credentials in the url', { url: 'https://user:pass@hooks.example.com/', secret: 'a-long-enough-secret' }, 'url'],
    ['a url over 2048 characters', { url: `https://hooks.example.com/${'a'.repeat(2100)}`, secret: 'a-long-enough-secret' }, 'url'],
    ['a url that is a number', { url: 42, secret: 'a-long-enough-secret' }, 'url'],
    ['no secret', { url: 'https://hooks.example.com/' }, 'secret'],
    ['a short secret', { url: 'https://hooks.example.com/', secret: 'short' }, 'secret'],
    ['a secret with spaces', { url: 'https://hooks.example.com/', secret: 'has spaces in the secret' }, 'secret'],
    ['an unknown event type', { url: 'https://hooks.example.com/', secret: 'a-long-enough-secret', event_types: ['nope'] }, 'event_types'],
    ['event types as a string', { url: 'https://hooks.example.com/', secret: 'a-long-enough-secret', event_types: 'drift' }, 'event_types'],
    ['no event types', { url: 'https://hooks.example.com/', secret: 'a-long-enough-secret', event_types: [] }, 'event_types'],
    ['an unknown field', { url: 'https://hooks.example.com/', secret: 'a-long-enough-secret', extra: 1 }, 'extra'],
  ] as Array<[string, Record<string, unknown>, string]>)('refuses a configuration with %s: 400 INVALID_PARAM naming the field', async (_label, body, field) => {
    const key = await signUp(service);
    const response = await service.request('POST', '/v2/webhooks/configure', { key, body });
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ error: { code: 'INVALID_PARAM', field } });
  });

  it('answers 400 to bad input elsewhere, never 500', async () => {
    const key = await signUp(service);
    const notJson = await service.request('POST', '/v2/webhooks/configure', { key, rawBody: '{"url":' });
    expect(notJson.status).toBe(400);
    expect(await json(notJson)).toMatchObject({ error: { code: 'INVALID_JSON' } });
    for (const query of ['?days=0', '?days=91', '?days=abc', '?days=1.5', '?limit=0', '?limit=1000']) {
      const response = await service.request('GET', `/v2/webhooks/deliveries${query}`, { key });
      expect(response.status).toBe(400);
      expect(await json(response)).toMatchObject({ error: { code: 'INVALID_PARAM', field: query.slice(1, query.indexOf('=')) } });
    }
    expect((await service.request('GET', '/v2/webhooks/deliveries?days=30', { key })).status).toBe(200);
  });

  it('documents the endpoints, the retry schedule and the time-out in the OpenAPI document', async () => {
    const document = (await (await service.request('GET', '/v2/openapi.json')).json()) as {
      paths: Record<string, Record<string, { description?: string; responses: Record<string, unknown> }>>;
    };
    const configure = document.paths['/v2/webhooks/configure'].post;
    expect(configure.responses['501']).toBeUndefined();
    expect(configure.description).toMatch(/10 s/);
    expect(configure.description).toMatch(/12 attempts/);
    expect(document.paths['/v2/webhooks/deliveries'].get.responses['200']).toBeDefined();
    expect(document.paths['/v2/webhooks/retry/{deliveryId}'].post.responses['202']).toBeDefined();
    expect(document.paths['/v2/webhooks'].get.responses['404']).toBeDefined();
  });

  it('refuses legacy keys: a webhook belongs to an account', async () => {
    const issued = await service.request('POST', '/v2/admin/keys', { key: ADMIN_KEY, body: { name: 'old', tier: 'pro' } });
    const legacy = (await data<{ key: string }>(issued)).key;
    const response = await service.request('POST', '/v2/webhooks/configure', { key: legacy, body: { url: 'https://hooks.example.com/', secret: 'a-long-enough-secret' } });
    expect(response.status).toBe(403);
    expect(await json(response)).toMatchObject({ error: { code: 'ACCOUNT_KEY_REQUIRED' } });
  });
});

/** Issue #10, item 6: after POST /v2/consent/delete-data, what the erased data was (customer, type, time) is gone from the delivery history and the queue. */
describe('webhook deliveries of erased data', () => {
  it('are no longer listed once the customer is erased, and never named in the clear in the queue or the delivery streams', async () => {
    const service = await bootService({ env: { WEBHOOK_RETRY_DELAYS_MS: '0' } });
    const receiver = await startReceiver();
    const customer = `cust-erasure-canary-${randomBytes(4).toString('hex')}`;
    try {
      // The fan-out is one of the process's log followers, so /health reports it when it is stuck.
      expect(service.runtime.followers.statuses().map((status) => status.name)).toContain('webhook fan-out');
      const key = await signUp(service);
      await service.request('POST', '/v2/webhooks/configure', { key, body: { url: receiver.url, secret: 'a-long-enough-secret', event_types: ['drift', 'geofence_breach', 'consent_revoked'] } });
      expect((await service.request('POST', '/v2/consent/grant', { key, body: { customer_id: customer } })).status).toBe(200);
      await service.request('PUT', `/v2/monitoring/zones/${customer}`, { key, body: { lat: 5.5497, lng: -0.2107, tolerance_hops: 1 } });
      await service.request('POST', '/v2/geofence/create', { key, body: { fence_type: 'circle', center: { lat: 5.5755, lng: -0.2301 }, radius_m: 400, customer_id: customer } });
      const pinged = await service.request('POST', '/v2/monitoring/pings', { key, body: { pings: [{ customer_id: customer, lat: 5.5755, lng: -0.2301, recorded_at: new Date(Date.now() - 60_000).toISOString() }] } });
      expect(pinged.status).toBe(200);
      await revoke(service, key, customer);
      const before = await eventually(async () => {
        const items = await deliveriesOf(service, key);
        return items.length === 3 && items.every((item) => item.status === 'delivered') ? items : undefined;
      }, 10_000);
      expect(before.map((item) => item.event_type).sort()).toEqual(['consent_revoked', 'drift', 'geofence_breach']);
      expect(before.every((item) => item.customer_id === customer)).toBe(true);

      // Nothing queued or recorded for a delivery names the customer in the clear (the list opens the sealed id).
      const { events, queue } = service.runtime.backends;
      const account = (await data<{ account_id: string }>(await service.request('GET', '/v2/me', { key }))).account_id;
      for (const item of before) {
        const job = await queue.getJob('webhooks', `deliver.${item.delivery_id}`);
        expect(job).toBeDefined();
        expect(JSON.stringify(job?.data)).not.toContain(customer);
        const recorded = await events.readStream(`webhook_delivery-${account}:${item.delivery_id}`);
        expect(recorded.length).toBeGreaterThan(0);
        expect(JSON.stringify(recorded.map((event) => event.data))).not.toContain(customer);
      }

      const erased = await service.request('POST', '/v2/consent/delete-data', { key, body: { customer_id: customer } });
      expect(erased.status).toBe(200);
      // Every delivery names the customer, the consent_revoked one too (issue 47): the history keeps none, the queue no job.
      await eventually(async () => ((await deliveriesOf(service, key)).length === 0 ? true : undefined), 10_000);
      for (const item of before) expect(await queue.getJob('webhooks', `deliver.${item.delivery_id}`)).toBeUndefined();
    } finally {
      await receiver.close();
      await service.close();
    }
  });

  it('a delivery due for a retry when the customer is erased is not sent again: its job gone, the history without it, a manual re-send unknown (issue 47)', async () => {
    // One automatic retry, late enough for the erasure to come first.
    const service = await bootService({ env: { WEBHOOK_RETRY_DELAYS_MS: '1500' } });
    const receiver = await startReceiver(() => 500);
    const customer = `cust-retried-${randomBytes(4).toString('hex')}`;
    try {
      const key = await signUp(service);
      await service.request('POST', '/v2/webhooks/configure', { key, body: { url: receiver.url, secret: 'a-long-enough-secret', event_types: ['consent_revoked'] } });
      await revoke(service, key, customer);
      const [failed] = await eventually(async () => {
        const items = await deliveriesOf(service, key);
        return items.length === 1 && items[0].status === 'failed' && items[0].next_attempt_at !== null ? items : undefined;
      }, 10_000);
      expect(receiver.deliveries).toHaveLength(1);
      expect(JSON.parse(receiver.deliveries[0].raw.toString('utf8'))).toMatchObject({ event: 'consent_revoked', customer_id: customer });

      expect((await service.request('POST', '/v2/consent/delete-data', { key, body: { customer_id: customer } })).status).toBe(200);
      // The erasure takes the retry's job from the queue (or, had it come due first, the retry finds the customer erased and
      // records the abandonment instead of sending): either way no job is left and the history forgets the delivery.
      const { queue } = service.runtime.backends;
      await eventually(async () => ((await queue.getJob('webhooks', `deliver.${failed.delivery_id}`)) === undefined && (await deliveriesOf(service, key)).length === 0 ? true : undefined), 10_000);
      const retried = await service.request('POST', `/v2/webhooks/retry/${failed.delivery_id}`, { key });
      expect(retried.status).toBe(404);
      expect(await json(retried)).toMatchObject({ error: { code: 'WEBHOOK_DELIVERY_NOT_FOUND' } });
      expect(await deliveriesOf(service, key)).toEqual([]);
      expect(receiver.deliveries).toHaveLength(1);
    } finally {
      await receiver.close();
      await service.close();
    }
  });
});

describe('webhook SSRF protection (WEBHOOK_ALLOW_PRIVATE_URLS=false)', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService({ env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'false' } });
  });
  afterAll(async () => {
    await service?.close();
  });

  // Issue 31, item 5: every spelling of a private or metadata address, the same table the transport refuses at delivery time.
  it.each([['http://localhost:8080/hook', 'loopback'], ...SSRF_URL_FORMS.map(([url, reason]) => [url, reason.replace(/_/g, '-')])])('refuses %s (%s)', async (url, reason) => {
    const key = await signUp(service);
    const response = await service.request('POST', '/v2/webhooks/configure', { key, body: { url, secret: 'a-long-enough-secret' } });
    expect(response.status).toBe(400);
    const body = await json<{ error: { code: string; field: string; message: string } }>(response);
    expect(body.error).toMatchObject({ code: 'WEBHOOK_URL_NOT_ALLOWED', field: 'url' });
    expect(body.error.message).toContain(reason);
    expect((await service.request('GET', '/v2/webhooks', { key })).status).toBe(404);
  });
});

describe('webhook secrets at rest', () => {
  it('never writes the secret in plain text anywhere under DATA_DIR', async () => {
    const service = await bootService({ env: { WEBHOOK_RETRY_DELAYS_MS: '0' } });
    const receiver = await startReceiver();
    const secret = `whsec_canary_${randomBytes(12).toString('hex')}`;
    try {
      const key = await signUp(service);
      await service.request('POST', '/v2/webhooks/configure', { key, body: { url: receiver.url, secret, event_types: ['consent_revoked'] } });
      await revoke(service, key, 'cust-secret');
      await eventually(async () => (receiver.deliveries.length > 0 ? true : undefined));
      await eventually(async () => ((await deliveriesOf(service, key)).length > 0 ? true : undefined));
      expect(hmac(secret, receiver.deliveries[0].raw)).toBe(receiver.deliveries[0].headers['x-webhook-signature']);
    } finally {
      await receiver.close();
      await service.close();
    }
    const needles = [Buffer.from(secret, 'utf8'), Buffer.from(secret, 'utf16le'), Buffer.from(Buffer.from(secret).toString('base64'))];
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const file = path.join(dir, name);
        if (statSync(file).isDirectory()) walk(file);
        else files.push(file);
      }
    };
    walk(service.dataDir);
    expect(files.length).toBeGreaterThan(3);
    // The search does see inside the LMDB files: the URL, stored in the same event as the sealed secret, is found.
    expect(files.some((file) => readFileSync(file).includes(Buffer.from(receiver.url)))).toBe(true);
    const containing = files.filter((file) => {
      const bytes = readFileSync(file);
      return needles.some((needle) => bytes.includes(needle));
    });
    expect(containing).toEqual([]);
  });
});
