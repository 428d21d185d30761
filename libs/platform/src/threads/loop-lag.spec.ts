import { LoopLag, RELEASED_PER_TICK } from './loop-lag.js';

/** Holds the loop with synchronous work for `totalMs`, `sliceMs` at a time, letting timers run in between. */
async function holdLoop(totalMs: number, sliceMs: number): Promise<void> {
  const until = Date.now() + totalMs;
  while (Date.now() < until) {
    const stop = Date.now() + sliceMs;
    while (Date.now() < stop);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

describe('LoopLag: how late the loop runs a timer, smoothed', () => {
  it('turns pressured above the threshold and off only below half of it', () => {
    const lag = new LoopLag(2);
    expect(lag.pressured()).toBe(false);
    // One late tick moves the average a quarter of the way: not pressure yet.
    lag.observe(6);
    expect(lag.lagMs).toBeCloseTo(1.5);
    expect(lag.pressured()).toBe(false);
    lag.observe(6);
    expect(lag.lagMs).toBeCloseTo(2.625);
    expect(lag.pressured()).toBe(true);
    // Between half the threshold and the threshold it stays on.
    lag.observe(0);
    expect(lag.lagMs).toBeCloseTo(1.96875);
    lag.observe(0);
    lag.observe(0);
    expect(lag.lagMs).toBeCloseTo(1.107);
    expect(lag.pressured()).toBe(true);
    lag.observe(0);
    expect(lag.lagMs).toBeLessThan(1);
    expect(lag.pressured()).toBe(false);
  });

  it('measures a loop held by synchronous work', async () => {
    const lag = new LoopLag(1, 2).start();
    try {
      await holdLoop(200, 20);
      expect(lag.lagMs).toBeGreaterThan(1);
      expect(lag.pressured()).toBe(true);
    } finally {
      lag.stop();
    }
  });

  it('smooths the loop utilization over ticks and tells its listeners after each tick', async () => {
    const lag = new LoopLag(1);
    lag.observeUtilization(1);
    expect(lag.utilization).toBeCloseTo(0.125);
    for (let i = 0; i < 30; i++) lag.observeUtilization(1);
    expect(lag.utilization).toBeGreaterThan(0.95);

    const running = new LoopLag(1, 2).start();
    let ticks = 0;
    running.onTick(() => ticks++);
    try {
      await holdLoop(150, 10);
      expect(ticks).toBeGreaterThan(3);
      // Held by synchronous work nearly all the time.
      expect(running.utilization).toBeGreaterThan(0.5);
    } finally {
      running.stop();
    }
  });

  it('lets nextTick waiters go RELEASED_PER_TICK a tick, in order, and all of them when stopped', async () => {
    // A timer that never fires on its own: the test ticks it.
    const lag = new LoopLag(1, 3_600_000).start();
    const order: number[] = [];
    const waits = Array.from({ length: RELEASED_PER_TICK * 2 + 1 }, (_, i) => lag.nextTick().then(() => order.push(i)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual([]);
    lag.ticked();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(Array.from({ length: RELEASED_PER_TICK }, (_, i) => i));
    lag.ticked();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toHaveLength(RELEASED_PER_TICK * 2);
    lag.stop();
    await Promise.all(waits);
    expect(order).toEqual(Array.from({ length: waits.length }, (_, i) => i));
    await expect(lag.nextTick()).resolves.toBeUndefined();
  });

  it('needs a positive threshold', () => {
    expect(() => new LoopLag(0)).toThrow(RangeError);
  });
});
