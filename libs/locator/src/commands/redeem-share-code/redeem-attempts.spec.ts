import { InProcessRateLimiter } from '../../../../platform/src/index.js';
import { RedeemThrottledError } from '../../domain/errors.js';
import { FAILED_REDEMPTIONS_PER_ACCOUNT, FAILED_REDEMPTIONS_PER_IP, RedeemAttempts } from './redeem-attempts.js';

describe('redeem attempts', () => {
  let now = new Date('2026-11-23T09:00:00.000Z');
  const attempts = () => new RedeemAttempts(new InProcessRateLimiter(), { now: () => now });

  it('refuses an account after 10 wrong codes in 15 minutes, then lets it try again', async () => {
    const throttle = attempts();
    for (let index = 0; index < FAILED_REDEMPTIONS_PER_ACCOUNT.limit; index++) {
      await throttle.check('acct_a', `10.0.0.${index}`);
      await throttle.failed('acct_a', `10.0.0.${index}`);
    }
    await expect(throttle.check('acct_a', '10.0.0.99')).rejects.toBeInstanceOf(RedeemThrottledError);
    await expect(throttle.check('acct_b', '10.0.0.99')).resolves.toBeUndefined();
    now = new Date(now.getTime() + FAILED_REDEMPTIONS_PER_ACCOUNT.windowMs + 1);
    await expect(throttle.check('acct_a', '10.0.0.99')).resolves.toBeUndefined();
  });

  it('refuses an IP after 50 wrong codes whatever accounts it uses, with a Retry-After', async () => {
    const throttle = attempts();
    for (let index = 0; index < FAILED_REDEMPTIONS_PER_IP.limit; index++) await throttle.failed(`acct_${index}`, '192.0.2.7');
    const refusal = await throttle.check('acct_fresh', '192.0.2.7').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(RedeemThrottledError);
    expect(refusal).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect((refusal as RedeemThrottledError).retryAfterSeconds).toBeGreaterThan(0);
    await expect(throttle.check('acct_fresh', '192.0.2.8')).resolves.toBeUndefined();
  });
});
