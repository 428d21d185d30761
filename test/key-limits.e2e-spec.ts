import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RATE_GROUPS, rateTable } from '../libs/accounts/src/index.js';
import { FileDatasetStore, loadConfig } from '../libs/platform/src/index.js';
import { importRoads } from '../libs/routing/src/index.js';
import { importGtfs } from '../libs/transit/src/index.js';
import { SAMPLE_FEED, SAMPLE_STOPS, writeGtfsZip } from '../libs/transit/src/testing/gtfs-feed.js';
import { describeWith } from '../libs/platform/src/testing/server-suites.js';
import { ADMIN_KEY, bootService, eventually, type Service } from './support/boot.js';
import { accountOf, signUp } from './support/http.js';

/**
 * Issue 50, item 1 (docs/adr/0060): an integrator's backend is one address
 * serving many people with one paid key. A keyed request is bounded by its
 * key's quota and its account's per-minute rates, which grow with the tier;
 * per-IP throttles bound callers without a key, and keyed callers only far
 * above any tier (a flood of keys from one address). Every 429 names its limit.
 */
const root = path.resolve(import.meta.dirname, '..');

interface Failure {
  success: false;
  error: { code: string; message: string; details?: Record<string, unknown> };
}

const raise = async (service: Service, key: string, tier: string) => {
  const response = await service.request('PUT', `/v2/admin/accounts/${await accountOf(service, key)}/tier`, { key: ADMIN_KEY, body: { tier } });
  expect(response.status).toBe(200);
};

describe('a pro key from one address, under the default limits', () => {
  let service: Service;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-key-limits-'));
    const store = new FileDatasetStore(path.join(dataDir, 'reference'));
    await importRoads(store, path.join(root, 'starter/ghana/roads/roads.osm.gz'));
    await importGtfs(store, writeGtfsZip(SAMPLE_FEED));
    // The defaults, burst windows included (the harness turns them off for other suites).
    service = await bootService({ dataDir, env: { THROTTLE_BURST_SECONDS: '10' } });
    // The road graph is prepared after the server listens; /health is 503 until it is loaded.
    await eventually(async () => ((await fetch(`${service.url}/health`)).status === 200 ? true : undefined), 60_000);
  }, 120_000);
  afterAll(async () => {
    await service?.close();
  });

  it('plans 300 routes and 100 transit trips in a minute without a 429, and reports its rates', async () => {
    const key = await signUp(service, 'Kofi');
    await raise(service, key, 'pro');
    const routes: number[] = [];
    let last: Response | undefined;
    // Short routes in Airport Residential / Cantonments, each a little different.
    for (let index = 0; index < 300; index++) {
      last = await service.request('POST', '/v2/route', { key, body: { from: { lat: 5.556, lng: -0.233 + (index % 10) * 0.0005 }, to: { lat: 5.562, lng: -0.225 } } });
      routes.push(last.status);
      await last.arrayBuffer();
    }
    expect(routes.filter((status) => status !== 200)).toEqual([]);
    // The quota in X-RateLimit-* (20,000 a day), the routing rate (600 a minute) beside it.
    expect(last!.headers.get('x-ratelimit-limit')).toBe('20000');
    expect(last!.headers.get('x-ratelimit-remaining')).toBe(String(20_000 - 1 - 300));
    expect(last!.headers.get('x-ratelimit-rate-limit')).toBe('600');
    expect(last!.headers.get('x-ratelimit-rate-remaining')).toBe('300');
    expect(last!.headers.get('x-ratelimit-policy')).toBe('"quota";q=20000;w=86400, "routing";q=600;w=60');

    const trips: number[] = [];
    let trip: Response | undefined;
    for (let index = 0; index < 100; index++) {
      trip = await service.request('POST', '/v2/route/transit', { key, body: { from: SAMPLE_STOPS.A, to: SAMPLE_STOPS.D, date: '2024-06-05', time: '06:55' } });
      trips.push(trip.status);
      await trip.arrayBuffer();
    }
    expect(trips.filter((status) => status !== 200)).toEqual([]);
    expect(trip!.headers.get('x-ratelimit-policy')).toBe('"quota";q=20000;w=86400, "transit";q=600;w=60');
    expect(trip!.headers.get('x-ratelimit-rate-remaining')).toBe('500');
  }, 300_000);

  it('still throttles a caller without a key per IP (10 in any 10 s of the 60 a minute), naming that limit', async () => {
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let index = 0; index < 11; index++) {
      const response = await service.request('POST', '/v2/route', { body: { from: { lat: 5.556, lng: -0.233 }, to: { lat: 5.562, lng: -0.225 } } });
      statuses.push(response.status);
      if (response.status === 429) refused = response;
      else await response.arrayBuffer();
    }
    expect(statuses.slice(0, 10).filter((status) => status === 429)).toEqual([]);
    expect(statuses[10]).toBe(429);
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await refused!.json()) as Failure;
    expect(body.error).toMatchObject({ code: 'RATE_LIMITED', details: { reason: 'rate', scope: 'ip', group: 'routing', callers: 'keyless', limit: 10, window_s: 10 } });
    expect(body.error.message).toContain('from 127.0.0.1 without a valid key');
  });

  it('states the same rates the guide does', () => {
    const table = rateTable(loadConfig({}).throttles);
    expect(RATE_GROUPS).toEqual(['routing', 'transit', 'navigation', 'language', 'other']);
    expect(table).toEqual({
      free: { routing: 60, transit: 60, navigation: 120, language: 20, other: 600 },
      basic: { routing: 180, transit: 180, navigation: 360, language: 60, other: 1800 },
      pro: { routing: 600, transit: 600, navigation: 1200, language: 200, other: 6000 },
      enterprise: { routing: 3000, transit: 3000, navigation: 6000, language: 1000, other: 30000 },
    });
  });
});

describe('per-key rates, the keyed per-IP ceiling and overrides, at small limits', () => {
  let service: Service;

  beforeAll(async () => {
    // A free key: 2 routing requests a minute; all keyed callers of one address together: 5 × 2 = 10.
    service = await bootService({ env: { TRUST_PROXY: 'true', THROTTLE_ROUTING_PER_MINUTE: '2', THROTTLE_KEYED_IP_FACTOR: '5' } });
  });
  afterAll(async () => {
    await service?.close();
  });

  const from = (ip: string) => ({ 'x-forwarded-for': ip });
  // The body is refused by validation (400) after the limits counted it: what is counted is the request.
  const route = (key: string, ip: string) => service.request('POST', '/v2/route', { key, headers: from(ip), body: {} });

  it("refuses a key over its tier's rate with 429, Retry-After and details naming the tier, and lets it in again once raised", async () => {
    const key = await signUp(service, 'Abena');
    expect((await route(key, '198.51.100.10')).status).toBe(400);
    expect((await route(key, '198.51.100.10')).status).toBe(400);
    const refused = await route(key, '198.51.100.10');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('x-ratelimit-rate-remaining')).toBe('0');
    const body = (await refused.json()) as Failure;
    expect(body.error).toMatchObject({ code: 'RATE_LIMITED', details: { reason: 'rate', scope: 'tier', group: 'routing', tier: 'free', limit: 2, window_s: 60 } });
    expect(body.error.message).toBe(`this key's routing rate is spent: the free tier allows 2 routing requests a minute; retry in ${refused.headers.get('retry-after')} s`);
    // Another group is counted apart; the quota (X-RateLimit-*) is the key's.
    const other = await service.request('GET', '/v2/me', { key, headers: from('198.51.100.10') });
    expect(other.status).toBe(200);
    expect(other.headers.get('x-ratelimit-limit')).toBe('100');
    expect(other.headers.get('x-ratelimit-policy')).toBe('"quota";q=100;w=86400, "other";q=600;w=60');
    // Basic multiplies the free rate by 3: 6 a minute, of which 3 are used.
    await raise(service, key, 'basic');
    const raised = await route(key, '198.51.100.10');
    expect(raised.status).toBe(400);
    expect(raised.headers.get('x-ratelimit-rate-limit')).toBe('6');
  });

  it("takes the operator's per-account override, names it in the refusal, and drops it when replaced by none", async () => {
    const key = await signUp(service, 'Yaa');
    const accountId = await accountOf(service, key);
    const set = await service.request('PUT', `/v2/admin/accounts/${accountId}/rates`, { key: ADMIN_KEY, body: { routing: 4 } });
    expect(set.status).toBe(200);
    expect(((await set.json()) as { data: Record<string, unknown> }).data).toMatchObject({ account_id: accountId, tier: 'free', rate_overrides: { routing: 4 } });
    const statuses: number[] = [];
    let refused: Response | undefined;
    for (let index = 0; index < 5; index++) {
      const response = await route(key, '198.51.100.11');
      statuses.push(response.status);
      if (response.status === 429) refused = response;
    }
    expect(statuses).toEqual([400, 400, 400, 400, 429]);
    expect(((await refused!.json()) as Failure).error).toMatchObject({ details: { reason: 'rate', scope: 'account', group: 'routing', limit: 4 } });
    // Not a key's key: the operator's, with a known group and a whole number.
    expect((await service.request('PUT', `/v2/admin/accounts/${accountId}/rates`, { key, body: { routing: 4 } })).status).toBe(401);
    for (const body of [{ routes: 4 }, { routing: 0 }, { routing: 2.5 }, { routing: '4' }]) {
      const bad = await service.request('PUT', `/v2/admin/accounts/${accountId}/rates`, { key: ADMIN_KEY, body });
      expect({ body, status: bad.status, code: ((await bad.json()) as Failure).error.code }).toEqual({ body, status: 400, code: 'INVALID_PARAM' });
    }
    const cleared = await service.request('PUT', `/v2/admin/accounts/${accountId}/rates`, { key: ADMIN_KEY, body: {} });
    expect(((await cleared.json()) as { data: Record<string, unknown> }).data.rate_overrides).toEqual({});
    expect((await route(key, '198.51.100.11')).headers.get('x-ratelimit-rate-limit')).toBe('2');
  });

  it('bounds a flood of new keys from one address by the keyed per-IP ceiling, and only that address', async () => {
    const ip = '198.51.100.12';
    const keys = await Promise.all(Array.from({ length: 7 }, (_, index) => signUp(service, `Flood${index}`)));
    const statuses: number[] = [];
    let refused: Response | undefined;
    // Seven keys, two requests each (each within its own rate): 14 from one address, over the ceiling of 10.
    for (const key of keys) {
      for (let index = 0; index < 2; index++) {
        const response = await route(key, ip);
        statuses.push(response.status);
        if (response.status === 429) refused ??= response;
      }
    }
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.slice(10)).toEqual([429, 429, 429, 429]);
    expect(Number(refused!.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = (await refused!.json()) as Failure;
    expect(body.error).toMatchObject({ code: 'RATE_LIMITED', details: { reason: 'rate', scope: 'ip', group: 'routing', callers: 'keyed', limit: 10, window_s: 60 } });
    expect(body.error.message).toContain(`from ${ip} across all keys`);
    // Another address is not held by it; a key with its rate left is, at this address.
    const fresh = await signUp(service, 'Elsewhere');
    expect((await route(fresh, '198.51.100.13')).status).toBe(400);
    expect((await route(fresh, ip)).status).toBe(429);
  });

  it("keeps a single key with an override above the ceiling under its own rate only", async () => {
    const key = await signUp(service, 'Big');
    expect((await service.request('PUT', `/v2/admin/accounts/${await accountOf(service, key)}/rates`, { key: ADMIN_KEY, body: { routing: 15 } })).status).toBe(200);
    const statuses: number[] = [];
    for (let index = 0; index < 16; index++) statuses.push((await route(key, '198.51.100.14')).status);
    // 15 fit (the ceiling of 10 gives way to the key's own 15); the 16th is the key's rate.
    expect(statuses.filter((status) => status === 400)).toHaveLength(15);
    expect(statuses[15]).toBe(429);
  });
});

// Two api instances share the per-key counters through Redis, as the quota counters (instances.e2e-spec).
const redisUrl = process.env.REDIS_URL;
describeWith('REDIS_URL', 'the shared per-key rate (key-limits.e2e-spec)')('a per-key rate across two api instances', () => {
  let first: Service;
  let second: Service;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-key-limits-two-'));
    const env = { REDIS_URL: redisUrl!, THROTTLE_ROUTING_PER_MINUTE: '3' };
    first = await bootService({ dataDir, env });
    second = await bootService({ dataDir, env });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  it('counts one account once, whichever instance answers', async () => {
    const key = await signUp(first, 'Shared');
    await eventually(async () => ((await second.request('GET', '/v2/me', { key })).status === 200 ? true : undefined));
    const statuses: number[] = [];
    for (let index = 0; index < 6; index++) statuses.push((await (index % 2 === 0 ? first : second).request('POST', '/v2/route', { key, body: {} })).status);
    expect(statuses).toEqual([400, 400, 400, 429, 429, 429]);
  });
});
