/**
 * What is left of the loop slicing of issue 31 until edge fairness replaces
 * it (issue 48): `yieldToLoop` for a view loading at start-up, and the
 * headroom the edge's yielding answers (http/expensive.ts) keep. No request
 * handler yields: CPU-heavy request work runs on a WorkPool (work-pool.ts).
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

/** Sets (or with undefined, removes) the headroom the edge's yielding answers keep. */
export function keepSliceHeadroom(kept: SliceHeadroom | undefined): void {
  headroom = kept;
}

/** The loop's next tick while request work must leave it headroom; undefined while it need not. */
export function headroomTick(): Promise<void> | undefined {
  return headroom?.held() ? headroom.nextTick() : undefined;
}
