import { ADMIN_KEY, bootService, type Service } from './support/boot.js';
import { json, signUp } from './support/http.js';

/** Issue #10: what a black-box probe found at the HTTP edge; every answer in the envelope, none a 5xx. */
type ErrorAnswer = { success: false; error: { code: string; message: string; field?: string; details?: Record<string, unknown>; request_id: string } };

describe('HTTP edge hardening', () => {
  let service: Service;
  let key: string;

  beforeAll(async () => {
    service = await bootService();
    key = await signUp(service, 'Edge');
  });
  afterAll(async () => {
    await service?.close();
  });

  describe('specified-but-unbuilt endpoints', () => {
    it('authenticate before answering 501', async () => {
      const missing = await service.request('POST', '/v2/route', { body: {} });
      expect(missing.status).toBe(401);
      expect(await json<ErrorAnswer>(missing)).toMatchObject({ error: { code: 'MISSING_API_KEY' } });
      const invalid = await service.request('POST', '/v2/route', { key: 'no-such-key', body: {} });
      expect(invalid.status).toBe(401);
      expect(await json<ErrorAnswer>(invalid)).toMatchObject({ error: { code: 'INVALID_API_KEY' } });
      const valid = await service.request('POST', '/v2/route', { key, body: {} });
      expect(valid.status).toBe(501);
      expect(await json<ErrorAnswer>(valid)).toMatchObject({ error: { code: 'NOT_IMPLEMENTED' } });
      const pathParam = await service.request('GET', '/v2/locator/target-1/location');
      expect(await json<ErrorAnswer>(pathParam)).toMatchObject({ error: { code: 'MISSING_API_KEY' } });
    });

    it('apply the access rules of the specification (admin, banking, tier)', async () => {
      expect(await json<ErrorAnswer>(await service.request('GET', '/v2/admin/traffic/accuracy', { key }))).toMatchObject({ error: { code: 'INVALID_API_KEY' } });
      expect((await service.request('GET', '/v2/admin/traffic/accuracy', { key: ADMIN_KEY })).status).toBe(501);
      const banking = await service.request('POST', '/v2/collections/register', { key, body: {} });
      expect(banking.status).toBe(403);
      expect(await json<ErrorAnswer>(banking)).toMatchObject({ error: { code: 'BANKING_ACCESS_REQUIRED' } });
      const tier = await service.request('GET', '/v2/analytics/retail-density', { key });
      expect(tier.status).toBe(403);
      expect(await json<ErrorAnswer>(tier)).toMatchObject({ error: { code: 'TIER_REQUIRED' } });
      const legacy = await service.request('POST', '/v2/kyc/verify', { key: ADMIN_KEY, body: {} });
      expect(await json<ErrorAnswer>(legacy)).toMatchObject({ error: { code: 'ACCOUNT_KEY_REQUIRED' } });
    });

    it('keep the public ones public', async () => {
      for (const [method, path] of [
        ['GET', '/v2/weather/alerts'],
        ['GET', '/v2/precipitation-forecast'],
        ['GET', '/v2/route/incidents'],
        ['POST', '/v2/route/incidents'],
        ['GET', '/v2/transit/departures'],
        ['POST', '/v2/navigate/route'],
        ['GET', '/v2/.well-known/jwks.json'],
      ]) {
        const response = await service.request(method, path, method === 'POST' ? { body: {} } : {});
        expect([method, path, response.status]).toEqual([method, path, 501]);
      }
    });

    it('are documented with their 501 and their access', async () => {
      const document = (await (await service.request('GET', '/v2/openapi.json')).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown>; security?: unknown[] }>> };
      expect(document.paths['/v2/route'].post.responses).toHaveProperty('501');
      expect(document.paths['/v2/route'].post.security).toEqual([{ api_key: [] }]);
      expect(document.paths['/v2/locator/{targetId}/location'].get.responses).toHaveProperty('501');
      expect(document.paths['/v2/weather/alerts'].get.security ?? []).toEqual([]);
    });
  });
});
