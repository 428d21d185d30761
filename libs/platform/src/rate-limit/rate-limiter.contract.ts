import type { RateDecision, RateLimitRule, RateLimiter } from './rate-limiter.port.js';
import { bucketSizeMs } from './sliding-window.js';

export interface RateLimiterContractOptions {
  /** Two limiters from `open` share their counters (Redis): run the cross-instance atomicity test. */
  sharedAcrossInstances?: boolean;
}

/**
 * The one behaviour suite every RateLimiter adapter runs (style.md: one
 * contract per port). Time is the `now` passed to each call, so rolling-window
 * behaviour is checked at exact instants, and nothing here measures durations.
 * Keys carry a per-run suffix, so runs sharing a Redis never meet.
 *
 * The instants follow `sliding-window.ts`: with a 24-hour window buckets are
 * epoch-aligned minutes, and a request stops counting 24 hours after the
 * latest request of its minute (a request made alone at 00:00:30 stops at
 * 00:00:30 the next day).
 */
export function describeRateLimiterContract(
  name: string,
  open: () => Promise<RateLimiter>,
  options: RateLimiterContractOptions = {},
): void {
  describe(`RateLimiter contract: ${name}`, () => {
    const run = Math.random().toString(36).slice(2, 8);
    const key = (label: string) => `${label}-${run}`;
    let limiter: RateLimiter;

    beforeEach(async () => {
      limiter = await open();
    });

    afterEach(async () => {
      await limiter.close();
    });

    const consumeTimes = async (k: string, rule: RateLimitRule, now: Date, times: number): Promise<RateDecision[]> => {
      const decisions: RateDecision[] = [];
      for (let i = 0; i < times; i++) decisions.push(await limiter.consume(k, rule, now));
      return decisions;
    };

    it('allows up to the limit, then refuses and says when to come back', async () => {
      const rule = { limit: 5, windowMs: DAY };
      const decisions = await consumeTimes(key('up-to'), rule, at('2025-03-01T00:00:30Z'), 5);
      expect(decisions.map((d) => [d.allowed, d.remaining, d.retryAfterMs])).toEqual([
        [true, 4, 0],
        [true, 3, 0],
        [true, 2, 0],
        [true, 1, 0],
        [true, 0, 0],
      ]);

      const refused = await limiter.consume(key('up-to'), rule, at('2025-03-01T09:00:00Z'));
      expect(refused).toEqual({
        allowed: false,
        limit: 5,
        remaining: 0,
        resetAt: at('2025-03-02T00:00:30Z'),
        retryAfterMs: at('2025-03-02T00:00:30Z').getTime() - at('2025-03-01T09:00:00Z').getTime(),
      });
    });

    it('does not count refused requests', async () => {
      const k = key('refused');
      const rule = { limit: 3, windowMs: DAY };
      await consumeTimes(k, rule, at('2025-03-01T00:00:30Z'), 1);
      await consumeTimes(k, rule, at('2025-03-01T01:00:30Z'), 2);
      const refusals = await consumeTimes(k, rule, at('2025-03-01T02:00:00Z'), 10);
      expect(refusals.every((d) => !d.allowed && d.remaining === 0)).toBe(true);

      // The first request leaves: room for exactly one, as if the ten refusals had never happened.
      const [freed, again] = await consumeTimes(k, rule, at('2025-03-02T00:00:30Z'), 2);
      expect(freed).toMatchObject({ allowed: true, remaining: 0, resetAt: at('2025-03-02T01:00:30Z') });
      expect(again).toMatchObject({ allowed: false, remaining: 0, resetAt: at('2025-03-02T01:00:30Z') });
    });

    it('reports remaining and when the oldest counted bucket leaves; peek counts nothing', async () => {
      const k = key('values');
      const rule = { limit: 100, windowMs: DAY };
      const t0 = at('2025-03-01T00:00:30.500Z');
      expect(await limiter.peek(k, rule, t0)).toEqual({ allowed: true, limit: 100, remaining: 100, resetAt: t0, retryAfterMs: 0 });

      expect(await limiter.consume(k, rule, t0)).toEqual({
        allowed: true,
        limit: 100,
        remaining: 99,
        resetAt: at('2025-03-02T00:00:30.500Z'),
        retryAfterMs: 0,
      });
      const later = at('2025-03-01T05:17:45Z');
      expect(await limiter.consume(k, rule, later)).toMatchObject({ remaining: 98, resetAt: at('2025-03-02T00:00:30.500Z') });
      const peeked = await limiter.peek(k, rule, later);
      expect(peeked).toEqual({ allowed: true, limit: 100, remaining: 98, resetAt: at('2025-03-02T00:00:30.500Z'), retryAfterMs: 0 });
      expect(await limiter.peek(k, rule, later)).toEqual(peeked);
    });

    it('frees capacity bucket by bucket as the window rolls, not all at once', async () => {
      const k = key('rolling');
      const rule = { limit: 100, windowMs: DAY };
      for (const time of ['00:00:30', '06:00:30', '12:00:30', '18:00:30']) {
        const decisions = await consumeTimes(k, rule, at(`2025-03-01T${time}Z`), 25);
        expect(decisions.every((d) => d.allowed)).toBe(true);
      }
      expect(await limiter.consume(k, rule, at('2025-03-01T23:59:59Z'))).toMatchObject({
        allowed: false,
        remaining: 0,
        resetAt: at('2025-03-02T00:00:30Z'),
        retryAfterMs: 31_000,
      });

      // 00:00:30's requests count for 24 hours.
      expect(await limiter.peek(k, rule, at('2025-03-02T00:00:29.999Z'))).toMatchObject({ allowed: false, remaining: 0 });
      // Then those 25 leave, and only they: a fixed window would have reset to 100.
      expect(await limiter.peek(k, rule, at('2025-03-02T00:00:30Z'))).toMatchObject({
        allowed: true,
        remaining: 25,
        resetAt: at('2025-03-02T06:00:30Z'),
      });
      const refill = await consumeTimes(k, rule, at('2025-03-02T00:00:30Z'), 26);
      expect(refill.filter((d) => d.allowed)).toHaveLength(25);
      expect(refill[25]).toMatchObject({ allowed: false, resetAt: at('2025-03-02T06:00:30Z'), retryAfterMs: 6 * HOUR });

      expect(await limiter.peek(k, rule, at('2025-03-02T06:00:29.999Z'))).toMatchObject({ remaining: 0 });
      expect(await limiter.peek(k, rule, at('2025-03-02T06:00:30Z'))).toMatchObject({ remaining: 25, resetAt: at('2025-03-02T12:00:30Z') });
    });

    it('throttles over a short window with 42 ms buckets (15 per minute)', async () => {
      const k = key('throttle');
      const rule = { limit: 15, windowMs: 60_000 };
      expect(bucketSizeMs(rule.windowMs)).toBe(42);
      // Bucket [1740000000018, 1740000000060): 10 at ..020 and 5 at ..050 count until ..050 plus the window.
      expect((await consumeTimes(k, rule, new Date(1_740_000_000_020), 10)).every((d) => d.allowed)).toBe(true);
      expect((await consumeTimes(k, rule, new Date(1_740_000_000_050), 5)).every((d) => d.allowed)).toBe(true);
      expect(await limiter.consume(k, rule, new Date(1_740_000_060_049))).toMatchObject({
        allowed: false,
        resetAt: new Date(1_740_000_060_050),
        retryAfterMs: 1,
      });
      const freed = await consumeTimes(k, rule, new Date(1_740_000_060_050), 16);
      expect(freed.filter((d) => d.allowed)).toHaveLength(15);
    });

    it('tells a refused caller when one more request fits, also when more than the limit is counted', async () => {
      const k = key('lowered');
      const rule = { limit: 10, windowMs: DAY };
      await consumeTimes(k, rule, at('2025-03-01T00:00:30Z'), 2);
      await consumeTimes(k, rule, at('2025-03-01T01:00:30Z'), 2);
      await consumeTimes(k, rule, at('2025-03-01T02:00:30Z'), 6);
      // A tier downgrade: 10 counted against a limit of 7; one more fits once 4 have left.
      const now = at('2025-03-01T03:00:00Z');
      expect(await limiter.consume(k, { limit: 7, windowMs: DAY }, now)).toEqual({
        allowed: false,
        limit: 7,
        remaining: 0,
        resetAt: at('2025-03-02T00:00:30Z'),
        retryAfterMs: at('2025-03-02T01:00:30Z').getTime() - now.getTime(),
      });
      expect(await limiter.peek(k, { limit: 7, windowMs: DAY }, at('2025-03-02T01:00:30Z'))).toMatchObject({
        allowed: true,
        remaining: 1,
      });
    });

    it('never announces a reset more than one window ahead, and the reset it announces is when room comes back', async () => {
      const k = key('reset-bound');
      const rule = { limit: 1000, windowMs: DAY };
      // 44 s into a minute: a reset at the end of that minute plus 24 h would be 86,416 s ahead.
      const first = at('2025-03-01T00:00:44Z').getTime();
      for (const offset of [0, 1, 15_000, 15_999, 16_000, 60_000, 61_000, 3 * HOUR]) {
        const now = first + offset;
        for (const decision of [await limiter.consume(k, rule, new Date(now)), await limiter.peek(k, rule, new Date(now))]) {
          expect(decision.resetAt.getTime()).toBeLessThanOrEqual(now + DAY);
        }
      }
      // The 00:00 minute holds the four requests made from 00:00:44 to 00:00:59.999: they leave together,
      // one window after the latest of them, and not a millisecond before that.
      const left = first + 15_999 + DAY;
      expect(await limiter.peek(k, rule, new Date(left - 1))).toMatchObject({ remaining: 1000 - 8, resetAt: new Date(left) });
      expect(await limiter.peek(k, rule, new Date(left))).toMatchObject({ remaining: 1000 - 4, resetAt: new Date(first + 61_000 + DAY) });
    });

    it('throttles a short window by the same rule: a request stops counting one window after the latest of its bucket', async () => {
      const k = key('reset-bound-short');
      const rule = { limit: 3, windowMs: 60_000 };
      // Both in the 42 ms bucket [1740000000018, 1740000000060).
      const counted = [];
      for (const made of [1_740_000_000_020, 1_740_000_000_050, 1_740_000_000_059]) counted.push(await limiter.consume(k, rule, new Date(made)));
      expect(counted.every((d) => d.allowed)).toBe(true);
      expect(await limiter.consume(k, rule, new Date(1_740_000_000_059))).toMatchObject({
        allowed: false,
        resetAt: new Date(1_740_000_060_059),
        retryAfterMs: 60_000,
      });
      expect(await limiter.peek(k, rule, new Date(1_740_000_060_058))).toMatchObject({ remaining: 0 });
      expect(await limiter.peek(k, rule, new Date(1_740_000_060_059))).toMatchObject({ remaining: 3 });
    });

    it('keeps keys apart', async () => {
      const rule = { limit: 2, windowMs: DAY };
      const now = at('2025-03-01T00:00:30Z');
      await consumeTimes(key('apart-a'), rule, now, 3);
      expect(await limiter.consume(key('apart-b'), rule, now)).toMatchObject({ allowed: true, remaining: 1 });
      expect(await limiter.peek(key('apart-a'), rule, now)).toMatchObject({ allowed: false, remaining: 0 });
    });

    it('allows exactly the limit among 120 concurrent requests on a fresh key', async () => {
      const k = key('concurrent');
      const rule = { limit: 100, windowMs: DAY };
      const now = at('2025-03-01T00:00:30Z');
      const decisions = await Promise.all(Array.from({ length: 120 }, () => limiter.consume(k, rule, now)));
      const allowed = decisions.filter((d) => d.allowed);
      expect(allowed).toHaveLength(100);
      // Each allowed request saw its own count: no two read the same value.
      expect(allowed.map((d) => d.remaining).sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, i) => i));
      expect(await limiter.peek(k, rule, now)).toMatchObject({ allowed: false, remaining: 0 });
    });

    if (options.sharedAcrossInstances) {
      it('allows exactly the limit among 120 concurrent requests split across two instances', async () => {
        const k = key('two-instances');
        const rule = { limit: 100, windowMs: DAY };
        const now = at('2025-03-01T00:00:30Z');
        const other = await open();
        try {
          const decisions = await Promise.all(
            Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? limiter : other).consume(k, rule, now)),
          );
          expect(decisions.filter((d) => d.allowed)).toHaveLength(100);
          expect(await other.peek(k, rule, now)).toMatchObject({ allowed: false, remaining: 0 });
          expect(await limiter.peek(k, rule, now)).toMatchObject({ allowed: false, remaining: 0 });
        } finally {
          await other.close();
        }
      });
    }

    it('forgets a key on reset', async () => {
      const k = key('reset');
      const rule = { limit: 3, windowMs: DAY };
      const now = at('2025-03-01T00:00:30Z');
      await consumeTimes(k, rule, now, 4);
      await limiter.reset(k);
      expect(await limiter.peek(k, rule, now)).toEqual({ allowed: true, limit: 3, remaining: 3, resetAt: now, retryAfterMs: 0 });
      expect(await limiter.consume(k, rule, now)).toMatchObject({ allowed: true, remaining: 2 });
      await expect(limiter.reset(key('never-used'))).resolves.toBeUndefined();
    });

    it('allows exactly 100,000 in one burst under an enterprise limit', async () => {
      const k = key('burst');
      const rule = { limit: 100_000, windowMs: DAY };
      const now = at('2025-03-01T00:00:30Z');
      let allowed = 0;
      for (let batch = 0; batch < 400; batch++) {
        const decisions = await Promise.all(Array.from({ length: 250 }, () => limiter.consume(k, rule, now)));
        allowed += decisions.filter((d) => d.allowed).length;
      }
      expect(allowed).toBe(100_000);
      expect(await limiter.consume(k, rule, now)).toMatchObject({ allowed: false, remaining: 0 });
    });

    it('counts one request a minute over two days, each for exactly 24 hours', async () => {
      const k = key('spread');
      const rule = { limit: 100_000, windowMs: DAY };
      const start = at('2025-03-01T00:00:30Z').getTime();
      for (let minute = 0; minute < 2 * 1440; minute++) {
        await limiter.consume(k, rule, new Date(start + minute * MINUTE));
      }
      // Alone in its minute, the request of 03-02 00:00:30 counts until 03-03 00:00:30 and no longer.
      expect(await limiter.peek(k, rule, at('2025-03-03T00:00:29.999Z'))).toMatchObject({
        remaining: 100_000 - 1440,
        resetAt: at('2025-03-03T00:00:30Z'),
      });
      expect(await limiter.peek(k, rule, at('2025-03-03T00:00:30Z'))).toMatchObject({
        remaining: 100_000 - 1439,
        resetAt: at('2025-03-03T00:01:30Z'),
      });
    });

    it('counts a request stamped earlier than the newest bucket in that bucket', async () => {
      const k = key('out-of-order');
      const rule = { limit: 10, windowMs: DAY };
      await limiter.consume(k, rule, at('2025-03-01T01:00:30Z'));
      // A caller that read the clock a minute earlier arrives late: its request counts in
      // the 01:00 bucket and leaves with it, 24 h after 01:00:30, not 24 h after 00:59:59.
      expect(await limiter.consume(k, rule, at('2025-03-01T00:59:59Z'))).toEqual({
        allowed: true,
        limit: 10,
        remaining: 8,
        resetAt: at('2025-03-02T01:00:30Z'),
        retryAfterMs: 0,
      });
      expect(await limiter.peek(k, rule, at('2025-03-02T01:00:29.999Z'))).toMatchObject({ remaining: 8 });
      expect(await limiter.peek(k, rule, at('2025-03-02T01:00:30Z'))).toMatchObject({ remaining: 10 });
    });

    it('starts a key over when it is used with another window', async () => {
      const k = key('rewindowed');
      const now = at('2025-03-01T00:00:30Z');
      await consumeTimes(k, { limit: 2, windowMs: DAY }, now, 2);
      expect(await limiter.consume(k, { limit: 2, windowMs: HOUR }, now)).toMatchObject({ allowed: true, remaining: 1 });
    });

    it('charges a request its cost: allowed only when all of it fits, refused whole otherwise (issue 31)', async () => {
      const k = key('cost');
      const rule = { limit: 10, windowMs: DAY };
      expect(await limiter.consume(k, rule, at('2025-03-01T00:00:30Z'), 6)).toMatchObject({ allowed: true, remaining: 4 });
      // 5 more do not fit; nothing of them is counted, and room comes when the 6 leave the window.
      expect(await limiter.consume(k, rule, at('2025-03-01T01:00:00Z'), 5)).toMatchObject({
        allowed: false,
        remaining: 4,
        retryAfterMs: at('2025-03-02T00:00:30Z').getTime() - at('2025-03-01T01:00:00Z').getTime(),
      });
      expect(await limiter.consume(k, rule, at('2025-03-01T01:00:00Z'), 4)).toMatchObject({ allowed: true, remaining: 0 });
      expect(await limiter.consume(k, rule, at('2025-03-01T01:00:00Z'))).toMatchObject({ allowed: false });
      // The 6 leave first, the 4 stay: a cost of 6 fits again, 7 does not.
      expect(await limiter.peek(k, rule, at('2025-03-02T00:00:31Z'))).toMatchObject({ remaining: 6 });
      expect(await limiter.consume(k, rule, at('2025-03-02T00:00:31Z'), 7)).toMatchObject({ allowed: false, retryAfterMs: at('2025-03-02T01:00:00Z').getTime() - at('2025-03-02T00:00:31Z').getTime() });
      expect(await limiter.consume(k, rule, at('2025-03-02T00:00:31Z'), 6)).toMatchObject({ allowed: true, remaining: 0 });
    });

    it('never allows a cost over the limit, and does not pretend waiting helps', async () => {
      const k = key('over-limit');
      const decision = await limiter.consume(k, { limit: 3, windowMs: MINUTE }, at('2025-03-01T00:00:30Z'), 4);
      expect(decision).toMatchObject({ allowed: false, remaining: 3, retryAfterMs: 0 });
      expect(await limiter.consume(k, { limit: 3, windowMs: MINUTE }, at('2025-03-01T00:00:30Z'), 3)).toMatchObject({ allowed: true, remaining: 0 });
      await expect(limiter.consume(k, { limit: 3, windowMs: MINUTE }, at('2025-03-01T00:00:30Z'), 0)).rejects.toThrow(/cost/);
      await expect(limiter.consume(k, { limit: 3, windowMs: MINUTE }, at('2025-03-01T00:00:30Z'), 1.5)).rejects.toThrow(/cost/);
    });

    it('rejects malformed keys and rules', async () => {
      const now = at('2025-03-01T00:00:30Z');
      await expect(limiter.consume('', { limit: 1, windowMs: DAY }, now)).rejects.toThrow(/key/);
      await expect(limiter.consume(key('bad'), { limit: 0, windowMs: DAY }, now)).rejects.toThrow(/limit/);
      await expect(limiter.peek(key('bad'), { limit: 1.5, windowMs: DAY }, now)).rejects.toThrow(/limit/);
      await expect(limiter.consume(key('bad'), { limit: 1, windowMs: 0 }, now)).rejects.toThrow(/windowMs/);
      await expect(limiter.consume(key('bad'), { limit: 1, windowMs: DAY }, new Date(Number.NaN))).rejects.toThrow(/now/);
      await expect(limiter.reset('')).rejects.toThrow(/key/);
    });

    it('answers ping while open and refuses calls once closed', async () => {
      await expect(limiter.ping()).resolves.toBeUndefined();
      const other = await open();
      await other.close();
      await expect(other.consume(key('closed'), { limit: 1, windowMs: DAY })).rejects.toThrow(/closed/);
      await expect(other.ping()).rejects.toThrow(/closed/);
      await expect(other.close()).resolves.toBeUndefined();
    });
  });
}

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

function at(iso: string): Date {
  return new Date(iso);
}
