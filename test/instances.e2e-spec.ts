import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeWith } from '../libs/platform/src/testing/server-suites.js';
import { bootService, type Service } from './support/boot.js';

// Two api instances share the event store (the same data folder) and Redis (queue and
// quota counters), as two production api processes share EventStoreDB and Redis.
// `.ci/run` sets REDIS_URL; without it there is nothing to share counters through.
const redisUrl = process.env.REDIS_URL;
const describeIf = describeWith('REDIS_URL', 'the two-instance tests (instances.e2e-spec)');

describeIf('two api instances', () => {
  let first: Service;
  let second: Service;

  beforeAll(async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'location-api-two-'));
    const env = { REDIS_URL: redisUrl! };
    first = await bootService({ dataDir, env });
    second = await bootService({ dataDir, env });
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
  });

  async function signUpOn(service: Service): Promise<string> {
    const response = await service.request('POST', '/v2/self/signup', { body: { name: 'Yaw', email: `yaw-${Math.random().toString(36).slice(2)}@example.com` } });
    return ((await response.json()) as { data: { key: string } }).data.key;
  }

  it('a key rotated through one instance is refused by the other at once', async () => {
    const key = await signUpOn(first);
    await new Promise((resolve) => setTimeout(resolve, 400)); // let the second instance learn the key
    expect((await second.request('GET', '/v2/me', { key })).status).toBe(200);
    const rotated = await first.request('POST', '/v2/me/rotate', { key });
    expect(rotated.status).toBe(200);
    const stale = await second.request('GET', '/v2/me', { key });
    expect(stale.status).toBe(401);
    expect(await stale.json()).toMatchObject({ error: { code: 'INVALID_API_KEY' } });
  });

  it('120 concurrent requests split over both instances give exactly 100 successes', async () => {
    const key = await signUpOn(first);
    await new Promise((resolve) => setTimeout(resolve, 400));
    const statuses = await Promise.all(
      Array.from({ length: 120 }, async (_, index) => (await (index % 2 === 0 ? first : second).request('GET', '/v2/usage', { key })).status),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(100);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
  });
});
