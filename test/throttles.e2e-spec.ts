import { ADMIN_KEY, bootService, type Service } from './support/boot.js';

describe('per-IP throttles', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService({ env: { THROTTLE_LANGUAGE_PER_MINUTE: '3' } });
  });
  afterAll(async () => {
    await service?.close();
  });

  it('throttles GET /v2/route/static to 15 per minute per IP', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 16; index++) {
      statuses.push((await service.request('GET', '/v2/route/static?from=5.6,-0.18&to=5.61,-0.2')).status);
    }
    expect(statuses.slice(0, 15).every((status) => status !== 429)).toBe(true);
    expect(statuses[15]).toBe(429);
    const limited = await service.request('GET', '/v2/route/static');
    // The fixed 15 a minute holds for everyone, key or not, and the refusal names it (docs/adr/0060).
    expect(await limited.json()).toMatchObject({
      success: false,
      error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^too many static route image requests from 127\.0\.0\.1: at most 15 a minute/), details: { reason: 'rate', scope: 'ip', group: 'route_static', callers: 'all', limit: 15, window_s: 60 } },
    });
    expect(limited.headers.get('x-ratelimit-limit')).toBe('15');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('applies the configured language throttle, separately from other groups', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++) statuses.push((await service.request('POST', '/v2/language/translate', { body: {} })).status);
    expect(statuses.slice(0, 3).includes(429)).toBe(false);
    expect(statuses[3]).toBe(429);
    expect((await service.request('POST', '/v2/navigation/arrival', { body: {} })).status).not.toBe(429);
    // A pro key from the same address has its own rate there (10 × 3 a minute), not the spent keyless one (docs/adr/0060).
    const key = ((await (await service.request('POST', '/v2/self/signup', { body: { name: 'Akua', email: `akua-${Date.now()}@example.com` } })).json()) as { data: { key: string } }).data.key;
    const me = ((await (await service.request('GET', '/v2/me', { key })).json()) as { data: { account_id: string } }).data;
    expect((await service.request('PUT', `/v2/admin/accounts/${me.account_id}/tier`, { key: ADMIN_KEY, body: { tier: 'pro' } })).status).toBe(200);
    const keyed: number[] = [];
    for (let index = 0; index < 4; index++) keyed.push((await service.request('POST', '/v2/language/translate', { key, body: {} })).status);
    expect(keyed.includes(429)).toBe(false);
  });
});

describe('AUTH_DISABLED in development', () => {
  it('serves without a key but limits each IP per rolling day', async () => {
    const service = await bootService({ env: { NODE_ENV: 'development', AUTH_DISABLED: 'true', DEV_IP_DAILY_LIMIT: '5' } });
    try {
      const statuses: number[] = [];
      for (let index = 0; index < 6; index++) statuses.push((await service.request('GET', '/v2/lookup?address=x')).status);
      expect(statuses.slice(0, 5).includes(429)).toBe(false);
      expect(statuses[5]).toBe(429);
    } finally {
      await service.close();
    }
  });
});

/** Issue #10, item 4: ~4,800 signups from one IP in ~8 s, 60 with one address. */
describe('signup throttles', () => {
  const signUp = (service: Service, email: string) => service.request('POST', '/v2/self/signup', { body: { name: 'Ama', email } });
  const address = () => `signup-${Math.random().toString(36).slice(2)}@example.com`;

  it('accepts SIGNUP_LIMIT_PER_IP_PER_HOUR signups from one IP, then answers 429 RATE_LIMITED with Retry-After', async () => {
    const service = await bootService({ env: { SIGNUP_LIMIT_PER_IP_PER_HOUR: '3' } });
    try {
      const statuses: number[] = [];
      for (let index = 0; index < 3; index++) statuses.push((await signUp(service, address())).status);
      expect(statuses).toEqual([201, 201, 201]);
      const refused = await signUp(service, address());
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    } finally {
      await service.close();
    }
  });

  it('allows 20 signups per IP an hour when SIGNUP_LIMIT_PER_IP_PER_HOUR is unset', async () => {
    // The test harness raises the limit for every other suite; an empty value means unset.
    const service = await bootService({ env: { SIGNUP_LIMIT_PER_IP_PER_HOUR: '' } });
    try {
      const statuses: number[] = [];
      for (let index = 0; index < 21; index++) statuses.push((await signUp(service, address())).status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(20);
      expect(statuses[20]).toBe(429);
    } finally {
      await service.close();
    }
  });

  it('accepts 3 signups per e-mail address an hour, whatever the IP allows', async () => {
    const service = await bootService();
    try {
      const email = address();
      const statuses: number[] = [];
      for (let index = 0; index < 3; index++) statuses.push((await signUp(service, email)).status);
      expect(statuses).toEqual([201, 201, 201]);
      // The same address in other letter cases is the same address.
      const refused = await signUp(service, email.toUpperCase());
      expect(refused.status).toBe(429);
      expect(await refused.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await signUp(service, address())).status).toBe(201);
    } finally {
      await service.close();
    }
  });
});

/** interface.md, "Limits" 2: every response carries X-RateLimit-Limit, -Remaining and -Reset. */
describe('rate-limit headers on every response', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService();
  });
  afterAll(async () => {
    await service?.close();
  });

  const headersOf = (response: Response) => ({
    limit: response.headers.get('x-ratelimit-limit'),
    remaining: response.headers.get('x-ratelimit-remaining'),
    reset: Number(response.headers.get('x-ratelimit-reset')),
  });

  it("a keyed request to an unknown path reports the key's quota without counting it", async () => {
    const key = ((await (await service.request('POST', '/v2/self/signup', { body: { name: 'Kojo', email: `kojo-${Date.now()}@example.com` } })).json()) as { data: { key: string } }).data.key;
    expect(headersOf(await service.request('GET', '/v2/me', { key }))).toMatchObject({ limit: '100', remaining: '99' });
    const missing = await service.request('GET', '/v2/no-such-thing', { key });
    expect(missing.status).toBe(404);
    const headers = headersOf(missing);
    expect(headers).toMatchObject({ limit: '100', remaining: '99' });
    expect(headers.reset).toBeGreaterThan(Date.now() / 1000 - 1);
  });

  it('a request without a key reports the per-IP ceiling of public calls: public endpoints, unknown paths and 401s alike', async () => {
    for (const [method, url, status] of [
      ['GET', '/v2/weather/alerts', 200],
      ['GET', '/v2/no-such-thing', 404],
      ['GET', '/v2/me', 401],
    ] as const) {
      const response = await service.request(method, url);
      expect(response.status).toBe(status);
      const headers = headersOf(response);
      expect(headers.limit).toBe('600');
      expect(Number(headers.remaining)).toBeLessThanOrEqual(600);
      expect(headers.reset).toBeGreaterThan(0);
    }
  });

  it('a public endpoint with its own throttle reports that one', async () => {
    const response = await service.request('GET', '/v2/route/static?from=5.6,-0.18&to=5.61,-0.2');
    expect(headersOf(response).limit).toBe('15');
  });
});

/**
 * Issue 31, item 1: a minute's allowance arrived in the first second and
 * throttles counted requests, not what they cost. Per-IP windows now have a
 * burst window under them, and a keyless body is charged by its size.
 */
describe('per-IP throttles charged by cost, in smooth windows', () => {
  let service: Service;

  beforeAll(async () => {
    service = await bootService({ env: { TRUST_PROXY: 'true', THROTTLE_PUBLIC_PER_MINUTE: '60', THROTTLE_NAVIGATION_PER_MINUTE: '600', THROTTLE_BURST_SECONDS: '10' } });
  });
  afterAll(async () => {
    await service?.close();
  });

  const from = (ip: string) => ({ 'x-forwarded-for': ip });

  it("refuses a minute's allowance sent in one second partway, with Retry-After, and keeps the minute's count for later", async () => {
    const statuses: number[] = [];
    let refused: Response | undefined;
    // Up to the minute's 60, stopping at the third refusal.
    for (let index = 0; index < 60 && statuses.filter((status) => status === 429).length < 3; index++) {
      const response = await service.request('GET', '/v2/weather/alerts', { headers: from('198.51.100.1') });
      statuses.push(response.status);
      if (response.status === 429 && !refused) refused = response;
    }
    const allowed = statuses.filter((status) => status === 200).length;
    // 60 a minute: a sixth of it (10) in any 10 s, not all 60 at once.
    expect(allowed).toBeGreaterThanOrEqual(10);
    expect(allowed).toBeLessThan(20);
    expect(refused).toBeDefined();
    // The burst window refused it, and says so: 10 in any 10 s (docs/adr/0060).
    expect(await refused!.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED', details: { reason: 'rate', scope: 'ip', group: 'public', callers: 'keyless', limit: 10, window_s: 10 } } });
    const retryAfter = Number(refused!.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(10);
    expect(refused!.headers.get('x-ratelimit-limit')).toBe('60');
    expect(refused!.headers.get('x-ratelimit-remaining')).toBe('0');
    // Another client is not held by it.
    expect((await service.request('GET', '/v2/weather/alerts', { headers: from('198.51.100.2') })).status).toBe(200);
  });

  it('charges a keyless JSON body by its size: a wide body costs more than a small one', async () => {
    const remaining = (response: Response) => Number(response.headers.get('x-ratelimit-remaining'));
    const send = (ip: string, body: unknown) => service.request('POST', '/v2/navigate/route', { headers: from(ip), body });
    const small = { from: { lat: 5.6, lng: -0.18 }, to: { lat: 5.61, lng: -0.2 } };
    // The same request, padded to about 6 KiB by a long string (refused by validation, after it was charged).
    const wide = { ...small, profile: 'x'.repeat(6000) };
    const first = await send('198.51.100.3', small);
    const second = await send('198.51.100.3', small);
    expect(remaining(first) - remaining(second)).toBe(1);
    const third = await send('198.51.100.3', wide);
    expect(third.status).not.toBe(429);
    expect(remaining(second) - remaining(third)).toBe(6);
  });

  it('a keyless JSON body over PUBLIC_BODY_LIMIT_BYTES is 413 before it is read, where a keyed caller may send it', async () => {
    // 99 points with long ids: over 16 KiB, within a fresh free key's 100 items a day.
    const big = { items: Array.from({ length: 99 }, (_, index) => ({ lat: 5.6 + index / 1e5, lng: -0.18, id: `${index}-`.padEnd(128, 'x') })) };
    expect(JSON.stringify(big).length).toBeGreaterThan(16_384);
    const keyless = await service.request('POST', '/v2/hexcode/bulk', { headers: from('198.51.100.4'), body: big });
    expect(keyless.status).toBe(413);
    expect(await keyless.json()).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE', details: { max_bytes: 16384 } } });
    const key = ((await (await service.request('POST', '/v2/self/signup', { headers: from('198.51.100.5'), body: { name: 'Esi', email: `esi-${Date.now()}@example.com` } })).json()) as { data: { key: string } }).data.key;
    expect((await service.request('POST', '/v2/hexcode/bulk', { key, headers: from('198.51.100.5'), body: big })).status).toBe(200);
  });
});
