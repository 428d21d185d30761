/** A caller refused this recently is slowed down on its next request (longer than the longest hold, so holds do not reset themselves). */
export const REFUSAL_MEMORY_MS = 2_000;
/** The hold grows by this much with each refusal in a row, up to REFUSAL_HOLD_MAX_MS. */
export const REFUSAL_HOLD_STEP_MS = 100;
export const REFUSAL_HOLD_MAX_MS = 1_000;
/** Callers remembered at most (the oldest refusals are forgotten first: a hold is a courtesy to others, not a record). */
const REFUSALS_REMEMBERED = 10_000;

/**
 * Refusal holds (docs/adr/0043, 0044): a caller (a key, or the IP of requests
 * without a valid key) refused a moment ago waits before its next request is
 * looked at, 100 ms more for each refusal in a row, up to 1 s, while its last
 * refusal is under REFUSAL_MEMORY_MS old. The request is then handled as any
 * other, so nothing is refused that would have been served; a client that
 * ignores Retry-After and resends at once is paced instead of having the main
 * thread accept, read and refuse it hundreds of times a second.
 *
 * Times are the monotonic performance.now(), not the service's Clock: a hold
 * paces real time, whatever a test's clock says. Per process, like the
 * embedded rate-limit counters.
 */
export class RefusalHolds {
  private readonly refusals = new Map<string, { at: number; inARow: number }>();

  /** `caller` was refused at `nowMs`. */
  refused(caller: string, nowMs: number): void {
    const last = this.refusals.get(caller);
    const inARow = last && nowMs - last.at < REFUSAL_MEMORY_MS ? last.inARow + 1 : 1;
    this.refusals.delete(caller);
    this.refusals.set(caller, { at: nowMs, inARow });
    if (this.refusals.size > REFUSALS_REMEMBERED) this.refusals.delete(this.refusals.keys().next().value!);
  }

  /** How long `caller`'s request arriving at `nowMs` waits before it is looked at: 0 unless it was refused just before. */
  holdMs(caller: string, nowMs: number): number {
    const last = this.refusals.get(caller);
    if (!last) return 0;
    if (nowMs - last.at >= REFUSAL_MEMORY_MS) {
      this.refusals.delete(caller);
      return 0;
    }
    return Math.min(REFUSAL_HOLD_MAX_MS, last.inARow * REFUSAL_HOLD_STEP_MS);
  }

  /** Waits out `caller`'s hold, if it has one. */
  async wait(caller: string): Promise<void> {
    const hold = this.holdMs(caller, performance.now());
    if (hold > 0) await new Promise((resolve) => setTimeout(resolve, hold));
  }
}
