import { Redis } from 'ioredis';
import { BackendUnavailableError } from '../../errors.js';
import { openRateLimiter } from '../index.js';
import { describeRateLimiterContract } from '../rate-limiter.contract.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';

const redisUrl = process.env.REDIS_URL;

// Needs a real Redis: CI sets REDIS_URL; without it the suite is skipped, not faked.
const describeIf = redisUrl ? describe : describe.skip;
if (!redisUrl) console.info('redis-rate-limiter.int-spec: REDIS_URL is not set; skipping the Redis rate-limiter tests');

// A prefix per run keeps runs apart on a shared Redis and lets cleanup delete exactly this run's keys.
const prefix = `test-rl-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}:`;

describeIf('RedisRateLimiter', () => {
  const DAY = 86_400_000;
  const t0 = Date.parse('2025-03-01T00:00:30Z');
  let redis: Redis;
  let limiter: RedisRateLimiter;

  beforeAll(() => {
    redis = new Redis(redisUrl!);
  });

  afterAll(async () => {
    await deleteKeys(redis, `${prefix}*`);
    redis.disconnect();
  });

  describeRateLimiterContract('Redis', () => RedisRateLimiter.open({ redisUrl: redisUrl!, prefix }), {
    sharedAcrossInstances: true,
  });

  describe('storage', () => {
    beforeEach(async () => {
      limiter = await RedisRateLimiter.open({ redisUrl: redisUrl!, prefix });
    });

    afterEach(() => limiter.close());

    it('is what openRateLimiter gives when a Redis URL is set', async () => {
      const opened = await openRateLimiter({ redisUrl: redisUrl! });
      try {
        expect(opened).toBeInstanceOf(RedisRateLimiter);
        await opened.ping();
      } finally {
        await opened.close();
      }
    });

    it('fails to open, with a clear error, when Redis cannot be reached', async () => {
      const opening = RedisRateLimiter.open({ redisUrl: 'redis://127.0.0.1:1' });
      await expect(opening).rejects.toThrow(BackendUnavailableError);
      await expect(opening).rejects.toThrow(/Redis is unreachable/);
    });

    it('keeps a key under its prefix, expiring when its newest bucket leaves the window', async () => {
      const now = Date.now();
      await limiter.consume('ttl', { limit: 5, windowMs: DAY }, new Date(now));
      const bucketEnd = (Math.floor(now / 60_000) + 1) * 60_000;
      const ttl = await redis.pttl(`${prefix}ttl`);
      // The script set exactly bucketEnd + DAY - now; some of it may have run down since.
      expect(ttl).toBeGreaterThan(DAY);
      expect(ttl).toBeLessThanOrEqual(bucketEnd + DAY - now);
    });

    it('uses the default prefix ratelimit:', async () => {
      const unprefixed = await RedisRateLimiter.open({ redisUrl: redisUrl! });
      const k = `${prefix}default`;
      try {
        await unprefixed.consume(k, { limit: 5, windowMs: DAY });
        expect(await redis.exists(`ratelimit:${k}`)).toBe(1);
      } finally {
        await unprefixed.reset(k);
        await unprefixed.close();
      }
      expect(await redis.exists(`ratelimit:${k}`)).toBe(0);
    });

    it('keeps one bucket for a burst, however large the limit', async () => {
      const rule = { limit: 100_000, windowMs: DAY };
      for (let batch = 0; batch < 20; batch++) {
        await Promise.all(Array.from({ length: 250 }, () => limiter.consume('burst', rule, new Date(t0))));
      }
      // One bucket field plus the four bookkeeping fields (w, t, lo, hi).
      expect(await redis.hlen(`${prefix}burst`)).toBe(1 + 4);
      expect(await redis.hget(`${prefix}burst`, 't')).toBe('5000');
    });

    it('keeps at most 1441 buckets for a key used every minute for days', async () => {
      const rule = { limit: 100_000, windowMs: DAY };
      for (let minute = 0; minute <= 3 * 1440; minute++) await limiter.consume('spread', rule, new Date(t0 + minute * 60_000));
      expect(await redis.hlen(`${prefix}spread`)).toBe(1441 + 4);
    });

    it('drops a key whose every bucket has left the window', async () => {
      const rule = { limit: 5, windowMs: 60_000 };
      await limiter.consume('emptied', rule, new Date(t0));
      expect(await limiter.peek('emptied', rule, new Date(t0 + 60_042))).toMatchObject({ remaining: 5, resetAt: new Date(t0 + 60_042) });
      expect(await redis.exists(`${prefix}emptied`)).toBe(0);
    });

    it('reports Redis failures as BackendUnavailableError', async () => {
      const failing = await RedisRateLimiter.open({ redisUrl: redisUrl!, prefix, onError: () => {} });
      try {
        // A key of another type makes the script fail on the server.
        await redis.set(`${prefix}wrong-type`, 'x');
        await expect(failing.consume('wrong-type', { limit: 5, windowMs: DAY })).rejects.toThrow(BackendUnavailableError);
      } finally {
        await failing.close();
      }
    });
  });
});

async function deleteKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    if (keys.length > 0) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
