import { ESTABLISHED_ACCOUNT_DAYS, LOW_TRUST_WEIGHT, reporterWeight } from './arrival.js';

const NOW = new Date('2026-11-23T12:00:00Z');
const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString();

describe('a reporter\'s weight (docs/adr/0056)', () => {
  it('weighs an account on a paid tier opened at least 30 days ago fully', () => {
    expect(ESTABLISHED_ACCOUNT_DAYS).toBe(30);
    for (const tier of ['basic', 'pro', 'enterprise']) expect(reporterWeight({ tier, since: daysAgo(ESTABLISHED_ACCOUNT_DAYS) }, NOW)).toBe(1);
  });

  it('weighs a free-tier account, however old, and a young paid one, half', () => {
    expect(LOW_TRUST_WEIGHT).toBe(0.5);
    expect(reporterWeight({ tier: 'free', since: daysAgo(400) }, NOW)).toBe(LOW_TRUST_WEIGHT);
    expect(reporterWeight({ tier: 'pro', since: daysAgo(ESTABLISHED_ACCOUNT_DAYS - 0.01) }, NOW)).toBe(LOW_TRUST_WEIGHT);
    expect(reporterWeight({ tier: 'free', since: daysAgo(0) }, NOW)).toBe(LOW_TRUST_WEIGHT);
    expect(reporterWeight({ tier: 'pro', since: 'not a date' }, NOW)).toBe(LOW_TRUST_WEIGHT);
  });

  it('weighs a caller with no standing (the operator key, authentication disabled) fully', () => {
    expect(reporterWeight(null, NOW)).toBe(1);
  });
});
