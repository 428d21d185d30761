import { describeRateLimiterContract } from '../rate-limiter.contract.js';
import { InProcessRateLimiter } from './in-process-rate-limiter.js';

describeRateLimiterContract('in-process', async () => new InProcessRateLimiter());

describe('InProcessRateLimiter', () => {
  const DAY = 86_400_000;
  const t0 = Date.parse('2025-03-01T00:00:30Z');
  let limiter: InProcessRateLimiter;

  beforeEach(() => {
    limiter = new InProcessRateLimiter();
  });

  afterEach(() => limiter.close());

  it('keeps one bucket for a burst, however large the limit', async () => {
    const rule = { limit: 100_000, windowMs: DAY };
    for (let i = 0; i < 100_000; i++) await limiter.consume('burst', rule, new Date(t0));
    expect(limiter.bucketCount('burst')).toBe(1);
  });

  it('keeps at most 1441 buckets for a key used every minute for days', async () => {
    const rule = { limit: 100_000, windowMs: DAY };
    // Early and late in every minute: a minute's bucket then outlives the 24 h by almost a minute.
    const start = Date.parse('2025-03-01T00:00:00.500Z');
    let most = 0;
    for (let minute = 0; minute <= 3 * 1440; minute++) {
      for (const second of [0, 59_000]) {
        await limiter.consume('spread', rule, new Date(start + minute * 60_000 + second));
        most = Math.max(most, limiter.bucketCount('spread'));
      }
    }
    expect(most).toBe(1441);
  });

  it('keeps no more buckets than the limit allows requests', async () => {
    const rule = { limit: 15, windowMs: 60_000 };
    for (let i = 0; i < 1000; i++) await limiter.consume('ip', rule, new Date(t0 + i * 10));
    expect(limiter.bucketCount('ip')).toBeLessThanOrEqual(15);
  });

  it('sweeps out keys whose window has emptied, by the latest time it was given', async () => {
    const rule = { limit: 5, windowMs: 60_000 };
    await limiter.consume('old', rule, new Date(t0));
    await limiter.consume('recent', rule, new Date(t0 + 30_000));
    expect(limiter.sweep()).toBe(0);
    // 'old' leaves one window after it was made; 'recent' still counts then.
    await limiter.peek('other', rule, new Date(t0 + 59_999));
    expect(limiter.sweep()).toBe(0);
    await limiter.peek('other', rule, new Date(t0 + 60_000));
    expect(limiter.sweep()).toBe(1);
    expect(limiter.keyCount).toBe(1);
    expect(limiter.bucketCount('recent')).toBe(1);
    expect(await limiter.peek('old', rule, new Date(t0 + 60_000))).toMatchObject({ remaining: 5 });
  });

  it('keeps nothing for a key that is only peeked at', async () => {
    await limiter.peek('peeked', { limit: 5, windowMs: DAY }, new Date(t0));
    expect(limiter.keyCount).toBe(0);
  });
});
