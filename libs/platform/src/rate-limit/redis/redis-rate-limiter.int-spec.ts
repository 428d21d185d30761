import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { BackendUnavailableError } from '../../errors.js';
import { seededRandom } from '../../testing/seeded-random.js';
import { describeWith } from '../../testing/server-suites.js';
import { InProcessRateLimiter } from '../embedded/in-process-rate-limiter.js';
import { openRateLimiter } from '../index.js';
import { describeRateLimiterContract } from '../rate-limiter.contract.js';
import { RedisRateLimiter } from './redis-rate-limiter.js';

const redisUrl = process.env.REDIS_URL;

// Needs a real Redis: CI sets REDIS_URL; without it the suite is skipped, not faked.
const describeIf = describeWith('REDIS_URL', 'the Redis rate-limiter tests (redis-rate-limiter.int-spec)');

const redisServer = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
const describeWithRedisServer = redisServer ? describe : describe.skip;
if (!redisServer) process.stderr.write('no redis-server binary: skipping the Redis outage test (redis-rate-limiter.int-spec)\n');

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
      const opened = await openRateLimiter({ redisUrl: redisUrl!, dataDir: '/nonexistent' });
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
      const ttl = await redis.pttl(`${prefix}ttl`);
      // The script set exactly one window (the request is its bucket's latest); some of it may have run down since.
      expect(ttl).toBeGreaterThan(DAY - 5000);
      expect(ttl).toBeLessThanOrEqual(DAY);
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
      // One bucket's count and latest plus the four bookkeeping fields (w, t, lo, hi).
      expect(await redis.hlen(`${prefix}burst`)).toBe(2 + 4);
      expect(await redis.hget(`${prefix}burst`, 't')).toBe('5000');
    });

    it('keeps at most 1441 buckets for a key used every minute for days', async () => {
      const rule = { limit: 100_000, windowMs: DAY };
      // Early and late in every minute: a minute's bucket then outlives the 24 h by almost a minute.
      const start = Date.parse('2025-03-01T00:00:00.500Z');
      let most = 0;
      for (let minute = 0; minute <= 3 * 1440; minute++) {
        for (const second of [0, 59_000]) {
          await limiter.consume('spread', rule, new Date(start + minute * 60_000 + second));
          if (minute >= 1440) most = Math.max(most, await redis.hlen(`${prefix}spread`));
        }
      }
      expect(most).toBe(2 * 1441 + 4);
    });

    it('reads a key stored before buckets kept their latest request as counting to the end of each bucket', async () => {
      const rule = { limit: 5, windowMs: DAY };
      // Three requests in the 00:00 minute of t0 and one in the 01:00 minute, as the earlier script stored them.
      const first = Math.floor(t0 / 60_000);
      await redis.hset(`${prefix}legacy`, String(first), '3', String(first + 60), '1', 'w', String(DAY), 't', '4', 'lo', String(first), 'hi', String(first + 60));
      const end = (first + 1) * 60_000 + DAY;
      expect(await limiter.consume('legacy', rule, new Date(t0 + 3_600_000))).toMatchObject({ allowed: true, remaining: 0, resetAt: new Date(end - 1) });
      expect(await limiter.peek('legacy', rule, new Date(end - 2))).toMatchObject({ remaining: 0 });
      expect(await limiter.peek('legacy', rule, new Date(end - 1))).toMatchObject({ remaining: 3 });
    });

    it('drops a key whose every bucket has left the window', async () => {
      const rule = { limit: 5, windowMs: 60_000 };
      await limiter.consume('emptied', rule, new Date(t0));
      expect(await limiter.peek('emptied', rule, new Date(t0 + 60_000))).toMatchObject({ remaining: 5, resetAt: new Date(t0 + 60_000) });
      expect(await redis.exists(`${prefix}emptied`)).toBe(0);
    });

    it('decides exactly as the in-process limiter over a long random run', async () => {
      const reference = new InProcessRateLimiter();
      const random = seededRandom(20250301);
      const rules = [
        { limit: 5, windowMs: 60_000 },
        { limit: 40, windowMs: DAY },
        { limit: 25, windowMs: DAY }, // the same key's limit lowered
        { limit: 3, windowMs: 1000 },
      ];
      let now = t0;
      try {
        for (let step = 0; step < 4000; step++) {
          // Mostly steps within the short windows, sometimes hours; now and then a caller stamped up to a minute early.
          const r = random();
          now += r < 0.6 ? Math.floor(random() * 200) : r < 0.9 ? Math.floor(random() * 5000) : r < 0.985 ? Math.floor(random() * 3 * 3_600_000) : 0;
          const stamped = random() < 0.1 ? now - Math.floor(random() * 60_000) : now;
          const which = Math.floor(random() * rules.length);
          const rule = rules[which];
          const k = `random-${which === 2 ? 1 : which}`;
          const op = random() < 0.8 ? 'consume' : random() < 0.95 ? 'peek' : 'reset';
          if (op === 'reset') {
            await Promise.all([limiter.reset(k), reference.reset(k)]);
            continue;
          }
          const [got, expected] = await Promise.all([limiter[op](k, rule, new Date(stamped)), reference[op](k, rule, new Date(stamped))]);
          if (JSON.stringify(got) !== JSON.stringify(expected)) {
            throw new Error(`step ${step}: ${op} ${k} at ${stamped}: Redis ${JSON.stringify(got)}, in-process ${JSON.stringify(expected)}`);
          }
        }
      } finally {
        await reference.close();
      }
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

describeWithRedisServer('RedisRateLimiter when Redis goes away', () => {
  it('fails calls with BackendUnavailableError while Redis is down and recovers once it is back', async () => {
    const port = 22000 + Math.floor(Math.random() * 1000);
    const startRedis = () =>
      spawn(redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    let server = startRedis();
    const rule = { limit: 5, windowMs: 60_000 };
    const limiter = await eventually(() => RedisRateLimiter.open({ redisUrl: `redis://127.0.0.1:${port}`, onError: () => {} }));
    try {
      expect(await limiter.consume('outage', rule)).toMatchObject({ allowed: true });
      server.kill('SIGKILL');
      await exited(server);
      await expect(limiter.consume('outage', rule)).rejects.toThrow(BackendUnavailableError);
      await expect(limiter.ping()).rejects.toThrow(BackendUnavailableError);

      server = startRedis();
      // A fresh server: the script is loaded again (EVALSHA falls back to EVAL).
      const back = await eventually(() => limiter.consume('outage', rule));
      expect(back).toMatchObject({ allowed: true, remaining: 4 });
    } finally {
      await limiter.close();
      server.kill('SIGKILL');
      await exited(server);
    }
  }, 30_000);
});

async function eventually<T>(attempt: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

function exited(child: ChildProcess): Promise<unknown> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', resolve));
}
