import { rateLimitHeaders } from './index.js';
import { bucketSizeMs } from './sliding-window.js';

describe('rateLimitHeaders', () => {
  it('formats limit, remaining and the reset instant in Unix seconds, rounded up', () => {
    expect(
      rateLimitHeaders({ allowed: true, limit: 100, remaining: 42, resetAt: new Date('2025-03-02T00:01:00.001Z'), retryAfterMs: 0 }),
    ).toEqual({ 'X-RateLimit-Limit': '100', 'X-RateLimit-Remaining': '42', 'X-RateLimit-Reset': '1740873661' });
    expect(
      rateLimitHeaders({ allowed: false, limit: 5, remaining: 0, resetAt: new Date('2025-03-02T00:01:00Z'), retryAfterMs: 1 })[
        'X-RateLimit-Reset'
      ],
    ).toBe('1740873660');
  });
});

describe('bucketSizeMs', () => {
  it('cuts a window into 1440 buckets, rounded up to whole milliseconds', () => {
    expect(bucketSizeMs(86_400_000)).toBe(60_000);
    expect(bucketSizeMs(3_600_000)).toBe(2500);
    expect(bucketSizeMs(60_000)).toBe(42);
    expect(bucketSizeMs(1000)).toBe(1);
    expect(bucketSizeMs(1)).toBe(1);
  });
});
