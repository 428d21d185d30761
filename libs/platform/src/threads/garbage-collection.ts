import { setFlagsFromString } from 'node:v8';

/** V8's heap growing factor the service runs with, as 1 + percent / 100 (GC_HEAP_GROWING_PERCENT; 0 leaves V8's own). */
export const DEFAULT_HEAP_GROWING_PERCENT = 100;

/**
 * Fewer full collections on the main thread (docs/adr/0044). V8 sizes the
 * heap's next limit from how fast its last collections ran: with ~80 MB live
 * and fast collections it picked a small factor, and under a stream of large
 * answers (service areas, bulk calls: their bytes count against that limit)
 * the api ran a mark-compact every ~0.8 s, each holding the loop 10–25 ms
 * (pause and incremental steps). A factor of 2 spaced them 4–6 s apart for
 * at most twice the live heap. The flag is read at every collection, so it
 * applies from here on; a `--heap-growing-percent` given to node itself wins.
 */
export function tuneGarbageCollection(percent: number, execArgv: readonly string[] = process.execArgv): boolean {
  if (!(percent > 0)) return false;
  if (execArgv.some((flag) => /^--heap[-_]growing[-_]percent(=|$)/.test(flag))) return false;
  setFlagsFromString(`--heap-growing-percent=${Math.floor(percent)}`);
  return true;
}
