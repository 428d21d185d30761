import { backoffDelay } from './job-queue.port.js';

describe('backoffDelay', () => {
  it('retries at once without a policy', () => {
    expect(backoffDelay(undefined, 1)).toBe(0);
  });

  it('waits the same for every retry under fixed', () => {
    expect([1, 2, 5].map((retry) => backoffDelay({ type: 'fixed', delayMs: 30 }, retry))).toEqual([30, 30, 30]);
  });

  it('doubles from delayMs under exponential, up to maxDelayMs', () => {
    const retries = [1, 2, 3, 4, 5];
    expect(retries.map((retry) => backoffDelay({ type: 'exponential', delayMs: 100 }, retry))).toEqual([100, 200, 400, 800, 1600]);
    expect(retries.map((retry) => backoffDelay({ type: 'exponential', delayMs: 100, maxDelayMs: 500 }, retry))).toEqual([
      100, 200, 400, 500, 500,
    ]);
  });

  it('follows a schedule and repeats its last entry', () => {
    const schedule = { type: 'schedule', delaysMs: [0, 1000, 60_000] } as const;
    expect([1, 2, 3, 4, 9].map((retry) => backoffDelay({ ...schedule, delaysMs: [...schedule.delaysMs] }, retry))).toEqual([
      0, 1000, 60_000, 60_000, 60_000,
    ]);
    expect(backoffDelay({ type: 'schedule', delaysMs: [] }, 3)).toBe(0);
  });
});
