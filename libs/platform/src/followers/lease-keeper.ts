import type { Lease } from '../locking/lease.js';
import type { JsonLogger } from '../logging/json-logger.js';

/** What a gated follower asks before it writes, and listens to for starting and stopping. */
export interface FollowerGate {
  /** True while this process may write (the fence). */
  held(): boolean;
  /** Called with `true` when this process takes the lease, `false` when it loses it. */
  onChange(listener: (held: boolean) => void): void;
}

/**
 * Keeps a Lease: tries to take it every `everyMs` while another process holds
 * it, renews it as often while this one does, and tells the followers it
 * gates when it changes hands (they start from their checkpoints, or stop
 * without writing further).
 */
export class LeaseKeeper implements FollowerGate {
  private readonly listeners: Array<(held: boolean) => void> = [];
  private timer?: NodeJS.Timeout;
  private holding = false;
  private ticking: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly lease: Lease,
    private readonly everyMs: number,
    private readonly logger?: Pick<JsonLogger, 'info' | 'warn'>,
    private readonly name = 'followers',
  ) {}

  /** Tries once (the first worker up holds the lease before its followers start), then keeps trying or renewing. */
  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => {
      this.ticking = this.ticking.then(() => this.tick());
    }, this.everyMs);
    this.timer.unref();
  }

  held(): boolean {
    return !this.stopped && this.lease.held();
  }

  onChange(listener: (held: boolean) => void): void {
    this.listeners.push(listener);
  }

  /** Stops renewing and gives the lease up; call after the followers stopped (they save their checkpoints while holding it). */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.ticking;
    this.stopped = true;
    this.set(false);
    await this.lease.release();
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    let holds = false;
    try {
      holds = await this.lease.tryHold();
    } catch (error) {
      this.logger?.warn({ msg: 'lease could not be tried', lease: this.name, err: error instanceof Error ? error.message : String(error) });
    }
    if (!this.stopped) this.set(holds);
  }

  private set(holds: boolean): void {
    if (holds === this.holding) return;
    this.holding = holds;
    this.logger?.info({ msg: holds ? 'lease taken: running the followers' : 'lease lost: followers stopped', lease: this.name });
    for (const listener of this.listeners) listener(holds);
  }
}
