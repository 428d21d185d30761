import { bootService, type Service } from './support/boot.js';

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
    expect(await limited.json()).toMatchObject({ success: false, error: { code: 'RATE_LIMITED' } });
    expect(limited.headers.get('x-ratelimit-limit')).toBe('15');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('applies the configured language throttle, separately from other groups', async () => {
    const statuses: number[] = [];
    for (let index = 0; index < 4; index++) statuses.push((await service.request('POST', '/v2/language/translate', { body: {} })).status);
    expect(statuses.slice(0, 3).includes(429)).toBe(false);
    expect(statuses[3]).toBe(429);
    expect((await service.request('POST', '/v2/navigation/arrival', { body: {} })).status).not.toBe(429);
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
