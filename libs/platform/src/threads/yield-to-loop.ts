/**
 * Lets the loop run its I/O callbacks before continuing (setImmediate runs
 * after the poll phase). For background work that loads at start-up (a view
 * reading the read store), not for request handlers: CPU-heavy request work
 * runs on a WorkPool (work-pool.ts).
 */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
