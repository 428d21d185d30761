import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, type Config } from '../../../platform/src/index.js';

/** A key refused 429 this recently is slowed down on its next expensive request (longer than the longest hold, so holds do not reset themselves). */
export const REFUSAL_MEMORY_MS = 2_000;
/** The hold grows by this much with each refusal in a row, up to REFUSAL_HOLD_MAX_MS. */
export const REFUSAL_HOLD_STEP_MS = 100;
export const REFUSAL_HOLD_MAX_MS = 1_000;
/** Keys remembered at most (the oldest refusals are forgotten first: a hold is a courtesy to others, not a record). */
const REFUSALS_REMEMBERED = 10_000;

/**
 * Expensive requests in flight per key, in this process (issue 31, item 2):
 * one key's bulk calls can hold at most `max` of them at once, so one tenant
 * cannot queue the event loop's (or the compute pool's) whole capacity. Per
 * process, like the embedded rate-limit counters: N api instances allow N × max.
 *
 * And its refusals (docs/adr/0043): a key whose expensive request was
 * refused 429 (its quota, or its cap in flight) and that sends its next one
 * within REFUSAL_MEMORY_MS waits before that request is looked at, 100 ms more
 * for each refusal in a row, up to 1 s. The request is then handled as any
 * other (a bulk that fits what is left of the quota is answered), so nothing is
 * refused that would have been served; but a client that ignores Retry-After
 * and resends a 350 kB bulk at once no longer has the main thread read and scan
 * it ~150 times a second over 8 connections.
 */
@Injectable()
export class InFlight {
  private readonly counts = new Map<string, number>();
  private readonly refusals = new Map<string, { at: number; inARow: number }>();

  readonly max: number;

  constructor(@Inject(CONFIG) config: Pick<Config, 'expensiveConcurrencyPerKey'>) {
    this.max = config.expensiveConcurrencyPerKey;
  }

  /** A slot for `key`, released by calling the answer (once; later calls do nothing); undefined when all are taken. */
  acquire(key: string): (() => void) | undefined {
    const held = this.counts.get(key) ?? 0;
    if (held >= this.max) return undefined;
    this.counts.set(key, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const now = (this.counts.get(key) ?? 1) - 1;
      if (now > 0) this.counts.set(key, now);
      else this.counts.delete(key);
    };
  }

  held(key: string): number {
    return this.counts.get(key) ?? 0;
  }

  /**
   * `key`'s expensive request was refused 429 at `nowMs`: for its quota, or at its cap of expensive requests in flight.
   * Times are the monotonic performance.now(), not the service's Clock: a hold paces real time, whatever a test's clock says.
   */
  refused(key: string, nowMs: number): void {
    const last = this.refusals.get(key);
    const inARow = last && nowMs - last.at < REFUSAL_MEMORY_MS ? last.inARow + 1 : 1;
    this.refusals.delete(key);
    this.refusals.set(key, { at: nowMs, inARow });
    if (this.refusals.size > REFUSALS_REMEMBERED) this.refusals.delete(this.refusals.keys().next().value!);
  }

  /** How long `key`'s expensive request arriving at `nowMs` waits before it is read: 0 unless it was refused just before. */
  holdMs(key: string, nowMs: number): number {
    const last = this.refusals.get(key);
    if (!last) return 0;
    if (nowMs - last.at >= REFUSAL_MEMORY_MS) {
      this.refusals.delete(key);
      return 0;
    }
    return Math.min(REFUSAL_HOLD_MAX_MS, last.inARow * REFUSAL_HOLD_STEP_MS);
  }
}
