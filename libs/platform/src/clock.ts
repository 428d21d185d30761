/** Time comes from here, so tests control it (backoff, expiry, rolling windows). */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export const CLOCK = Symbol('Clock');
