/** Slices `nextTick` lets go at one tick: about 2 ms of sliced work per 5 ms while the loop has no headroom. */
export const RELEASED_PER_TICK = 2;

/**
 * How late the event loop runs a timer, smoothed: the process's own measure of
 * how much work is queued ahead of a request that arrives now (docs/adr/0045).
 *
 * A timer asks to run every `intervalMs`; the time past that it actually runs
 * is how long the loop was busy with other callbacks. The lateness of each
 * tick feeds a moving average (a quarter of each new tick), so one long
 * collection does not count as pressure but a queue that persists for a few
 * ticks does. `pressured` has hysteresis: it turns on above `thresholdMs` and
 * off only below half of it, so admission does not flap at the threshold.
 *
 * The same tick also smooths how busy the loop was (`utilization`: the share
 * of each tick's time it was not waiting for I/O, Node's event-loop
 * utilization, an eighth of each new tick), and tells a listener (`onTick`):
 * FairShare admits a backlogged tenant's requests only while the loop has
 * headroom (docs/adr/0052).
 *
 * The timer is unref'd (it never keeps a process alive) and costs a few
 * microseconds per tick.
 */
export class LoopLag {
  private averageMs = 0;
  private underPressure = false;
  private busyShare = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly listeners: Array<() => void> = [];
  private readonly tickWaiters: Array<() => void> = [];

  constructor(
    readonly thresholdMs: number,
    private readonly intervalMs = 5,
    private readonly now: () => number = () => performance.now(),
  ) {
    if (!(thresholdMs > 0)) throw new RangeError(`LoopLag needs a positive threshold, got ${thresholdMs}`);
  }

  start(): this {
    if (this.timer) return this;
    let due = this.now() + this.intervalMs;
    let since = performance.eventLoopUtilization();
    this.timer = setInterval(() => {
      const at = this.now();
      this.observe(Math.max(0, at - due));
      due = at + this.intervalMs;
      const now = performance.eventLoopUtilization();
      this.observeUtilization(performance.eventLoopUtilization(now, since).utilization);
      since = now;
      this.ticked();
    }, this.intervalMs);
    this.timer.unref();
    return this;
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    // Nothing waits for a tick that will not come.
    for (const wake of this.tickWaiters.splice(0)) wake();
  }

  /** After a tick's measures: the listeners, then RELEASED_PER_TICK of the nextTick waiters (the timer's; tests call it directly). */
  ticked(): void {
    for (const listener of this.listeners) listener();
    for (const wake of this.tickWaiters.splice(0, RELEASED_PER_TICK)) wake();
  }

  /** Resolves at a coming tick, in order of asking, RELEASED_PER_TICK a tick (at once when the timer is stopped). */
  nextTick(): Promise<void> {
    if (!this.timer) return Promise.resolve();
    return new Promise((resolve) => this.tickWaiters.push(resolve));
  }

  /** One tick's lateness, in ms (the timer's; tests feed it directly). */
  observe(lateMs: number): void {
    this.averageMs += (lateMs - this.averageMs) / 4;
    if (this.averageMs > this.thresholdMs) this.underPressure = true;
    else if (this.averageMs < this.thresholdMs / 2) this.underPressure = false;
  }

  /** One tick's event-loop utilization, 0 to 1 (the timer's; tests feed it directly). */
  observeUtilization(share: number): void {
    this.busyShare += (share - this.busyShare) / 8;
  }

  /** The moving average of the loop's utilization over the last ticks, 0 to 1. */
  get utilization(): number {
    return this.busyShare;
  }

  /** Calls `listener` after every tick (once the lateness and the utilization are updated). */
  onTick(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** The moving average of the ticks' lateness, in ms. */
  get lagMs(): number {
    return this.averageMs;
  }

  /** Whether the loop is behind: on above the threshold, off again below half of it. */
  pressured(): boolean {
    return this.underPressure;
  }
}
