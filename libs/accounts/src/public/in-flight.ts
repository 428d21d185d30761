import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, type Config } from '../../../platform/src/index.js';
import { RefusalHolds } from './refusal-holds.js';


/**
 * Expensive requests in flight per key, in this process (issue 31, item 2):
 * one key's bulk calls can hold at most `max` of them at once, so one tenant
 * cannot queue the event loop's (or the compute pool's) whole capacity. Per
 * process, like the embedded rate-limit counters: N api instances allow N × max.
 *
 * And its refusals (RefusalHolds, docs/adr/0043): a key whose expensive
 * request was refused 429 (its quota, or its cap in flight) waits before its
 * next one is looked at. The request is then handled as any other (a bulk that
 * fits what is left of the quota is answered); but a client that ignores
 * Retry-After and resends a 350 kB bulk at once no longer has the main thread
 * read and scan it ~150 times a second over 8 connections.
 */
@Injectable()
export class InFlight {
  private readonly counts = new Map<string, number>();
  private readonly holds = new RefusalHolds();

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

  /** `key`'s expensive request was refused 429 at `nowMs` (performance.now()): for its quota, or at its cap in flight. */
  refused(key: string, nowMs: number): void {
    this.holds.refused(key, nowMs);
  }

  /** How long `key`'s expensive request arriving at `nowMs` waits before it is read: 0 unless it was refused just before. */
  holdMs(key: string, nowMs: number): number {
    return this.holds.holdMs(key, nowMs);
  }

  /** Waits out `key`'s hold before its expensive request is read, if it has one. */
  wait(key: string): Promise<void> {
    return this.holds.wait(key);
  }
}
