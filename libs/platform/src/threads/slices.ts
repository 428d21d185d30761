/**
 * Work on the event loop in slices (issue 31, docs/adr/0042): a request that
 * must do a lot of work on the main thread does it a few milliseconds at a
 * time, yielding between slices so other requests' I/O is served in between.
 */

/** Lets the loop run its I/O callbacks before continuing (setImmediate runs after the poll phase). */
export function yieldToLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * What keeps headroom on a busy loop for sliced request work (docs/adr/0052),
 * set by the api process: while `held()` (the loop saturated and shared with
 * other callers), a slice waits for the loop's next tick (`nextTick`, a few
 * slices per tick) instead of the next turn.
 */
export interface SliceHeadroom {
  held(): boolean;
  nextTick(): Promise<void>;
}

let headroom: SliceHeadroom | undefined;

/** Sets (or with undefined, removes) the headroom that request work yielding with `yieldWithHeadroom` keeps. */
export function keepSliceHeadroom(kept: SliceHeadroom | undefined): void {
  headroom = kept;
}

/**
 * Yields like yieldToLoop; while the loop has no headroom and others use it,
 * until its next tick instead. For a request's own sliced work (a portfolio
 * assessment, an answer's chunks): a tenant's two heavy requests in flight,
 * within their share, still kept the loop ~90 % busy (ADR 0052).
 */
export function yieldWithHeadroom(): Promise<void> {
  return headroomTick() ?? yieldToLoop();
}

/** The loop's next tick while request work must leave it headroom; undefined while it need not. */
export function headroomTick(): Promise<void> | undefined {
  return headroom?.held() ? headroom.nextTick() : undefined;
}

/**
 * How long a slice of work may hold the loop. A request that needs the loop
 * k times waits up to k slices of every sliced job in flight, so slices must
 * be short: at 1 ms, two heavy requests cost a victim that needs the loop four
 * times ~8 ms, at 5 ms ~40 ms.
 */
export const SLICE_BUDGET_MS = 1;

/**
 * A loop's own clock for slicing by time rather than by count, for work whose
 * items vary in cost: `if (slicer.due()) await slicer.yield();` per item. The
 * check is one performance.now() (tens of ns), so items should cost a µs or more.
 */
export class LoopSlicer {
  private since = performance.now();

  /** `options.headroom`: a request's work, which yields with yieldWithHeadroom; background work (deliveries) does not. */
  constructor(
    private readonly budgetMs = SLICE_BUDGET_MS,
    private readonly options: { headroom?: boolean } = {},
  ) {}

  /** A request's own work: slices of SLICE_BUDGET_MS that keep the loop's headroom while others use it (ADR 0052). */
  static forRequest(): LoopSlicer {
    return new LoopSlicer(SLICE_BUDGET_MS, { headroom: true });
  }

  /** The slice's time is spent: yield before the next item. */
  due(): boolean {
    return performance.now() - this.since >= this.budgetMs;
  }

  /** Yields to the loop and starts a new slice. */
  async yield(): Promise<void> {
    await (this.options.headroom ? yieldWithHeadroom() : yieldToLoop());
    this.since = performance.now();
  }
}

/** Elements sorted (or merged) between two yields: ~0.5 ms of comparisons for a comparator that reads a field or two. */
const SORT_SLICE = 500;

/**
 * `items.slice().sort(compare)`, yielding to the loop every slice: runs of
 * `slice` elements are sorted by the engine's (stable) sort, then merged
 * pairwise, a run taking the left element on ties, so the result is the
 * same stable order as one `sort` call. 10,000 elements sorted at once held
 * the loop for ~10 ms with a comparator that falls back to string order.
 */
export async function sortInSlices<T>(items: readonly T[], compare: (a: T, b: T) => number, slice = SORT_SLICE): Promise<T[]> {
  let from = items.slice();
  const n = from.length;
  if (n <= slice) return from.sort(compare);
  for (let start = 0; start < n; start += slice) {
    const run = from.slice(start, start + slice).sort(compare);
    for (let i = 0; i < run.length; i++) from[start + i] = run[i];
    await yieldToLoop();
  }
  let to = new Array<T>(n);
  let moved = 0;
  for (let width = slice; width < n; width *= 2) {
    for (let left = 0; left < n; left += 2 * width) {
      const middle = Math.min(left + width, n);
      const end = Math.min(left + 2 * width, n);
      let i = left;
      let j = middle;
      let k = left;
      while (i < middle && j < end) {
        to[k++] = compare(from[j], from[i]) < 0 ? from[j++] : from[i++];
        if (++moved % (4 * slice) === 0) await yieldToLoop();
      }
      while (i < middle) to[k++] = from[i++];
      while (j < end) to[k++] = from[j++];
    }
    [from, to] = [to, from];
  }
  return from;
}
