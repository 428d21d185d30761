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

/**
 * Writes `turn` into `log` at every turn of the event loop until `stop()`, so
 * that a test can log its own steps in between and see which of them ran
 * within one turn (`betweenTurns`).
 */
export function logLoopTurns(log: string[]): { stop(): void } {
  let done = false;
  const tick = () => {
    if (done) return;
    log.push('turn');
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    stop() {
      done = true;
    },
  };
}

/** The entries of a log that `logLoopTurns` wrote into, grouped by the turn they ran in (entries must not contain spaces). */
export function betweenTurns(log: readonly string[]): string[][] {
  return log
    .join(' ')
    .split('turn')
    .map((part) => part.trim().split(' ').filter(Boolean));
}
