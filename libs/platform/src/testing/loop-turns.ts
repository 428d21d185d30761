/**
 * Counts the event loop's turns while some work runs: a ticker that takes its
 * turn (setImmediate) again and again, as a request waiting on the loop would.
 * Work done in one synchronous stretch lets it in at most once; work that
 * yields between slices lets it in many times.
 */
export function countLoopTurns(): { stop(): number } {
  let turns = 0;
  let done = false;
  const tick = () => {
    turns++;
    if (!done) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop() {
      done = true;
      return turns;
    },
  };
}
