import { describeWith } from '../testing/server-suites.js';
import { InProcessConcurrencyLimiter, RedisConcurrencyLimiter, type ConcurrencyLimiter } from './concurrency-limiter.js';

const redisUrl = process.env.REDIS_URL;
// Needs a real Redis: CI sets REDIS_URL; without it the Redis half is skipped, not faked.
const describeIfRedis = describeWith('REDIS_URL', 'the Redis concurrency-slot tests (concurrency-limiter.int-spec)');
const prefix = () => `test-cc-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}:`;

function describeContract(name: string, open: () => ConcurrencyLimiter): void {
  describe(name, () => {
    let limiter: ConcurrencyLimiter;
    beforeEach(() => {
      limiter = open();
    });
    afterEach(() => limiter.close());

    it('gives a key at most `limit` slots, other keys their own, and a released slot back once', async () => {
      const first = await limiter.acquire('a', 2);
      const second = await limiter.acquire('a', 2);
      expect(first).toBeDefined();
      expect(second).toBeDefined();
      expect(await limiter.acquire('a', 2)).toBeUndefined();
      expect(await limiter.acquire('b', 2)).toBeDefined();
      first!();
      first!();
      expect(await limiter.acquire('a', 2)).toBeDefined();
      expect(await limiter.acquire('a', 2)).toBeUndefined();
    });
  });
}

describeContract('InProcessConcurrencyLimiter', () => new InProcessConcurrencyLimiter());

describeIfRedis('RedisConcurrencyLimiter', () => {
  describeContract('the contract', () => new RedisConcurrencyLimiter(redisUrl!, prefix()));

  it('shares the slots between two processes (two clients), and gives back the slots of one that died when their leases run out', async () => {
    const shared = prefix();
    // A lease of 300 ms: renewed every 100 ms while held.
    const alive = new RedisConcurrencyLimiter(redisUrl!, shared, 300);
    const dying = new RedisConcurrencyLimiter(redisUrl!, shared, 300);
    try {
      expect(await dying.acquire('k', 2)).toBeDefined();
      const held = await alive.acquire('k', 2);
      expect(held).toBeDefined();
      expect(await alive.acquire('k', 2)).toBeUndefined();
      // The living holder's lease is renewed past its first expiry.
      await new Promise((resolve) => setTimeout(resolve, 450));
      expect(await alive.acquire('k', 1)).toBeUndefined();
      // The other "dies": its connection goes and it never releases nor renews.
      await dying.close();
      await new Promise((resolve) => setTimeout(resolve, 450));
      expect(await alive.acquire('k', 2)).toBeDefined();
      expect(await alive.acquire('k', 2)).toBeUndefined();
      held!();
    } finally {
      await alive.close();
    }
  });
});

describeIfRedis('RedisConcurrencyLimiter without a slot asked for', () => {
  it('opens no connection, and closes', async () => {
    const limiter = new RedisConcurrencyLimiter(redisUrl!, prefix());
    expect((limiter as unknown as { redis: { status: string } }).redis.status).toBe('wait');
    await limiter.close();
    expect((limiter as unknown as { redis: { status: string } }).redis.status).toBe('end');
  });
});
