import { createHash, timingSafeEqual } from 'node:crypto';

/** Compares secrets in time independent of where they differ (and of their lengths, via digests). */
export function secretsEqual(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
