import { Inject, Injectable } from '@nestjs/common';
import { CONFIG, type Config } from '../../../platform/src/index.js';

/**
 * Expensive requests in flight per key, in this process (issue 31, item 2):
 * one key's bulk calls can hold at most `max` of them at once, so one tenant
 * cannot queue the event loop's (or the compute pool's) whole capacity. Per
 * process, like the embedded rate-limit counters: N api instances allow N × max.
 */
@Injectable()
export class InFlight {
  private readonly counts = new Map<string, number>();

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
}
