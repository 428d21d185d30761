import cliProgress from 'cli-progress';

/** An operator command's progress: a bar on a terminal; on a pipe (CI, logs) a line every 10 %. */
export function progressBar(label: string): { update(value: number, total: number, applied: number): void; stop(): void } {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: `${label} [{bar}] {percentage}% | {value}/{total} | {applied} applied`, stream: process.stderr },
      cliProgress.Presets.shades_classic,
    );
    let started = false;
    return {
      update(value, total, applied) {
        if (!started) {
          bar.start(total, 0, { applied: 0 });
          started = true;
        }
        bar.setTotal(total);
        bar.update(value, { applied });
      },
      stop: () => started && bar.stop(),
    };
  }
  let lastDecile = -1;
  return {
    update(value, total, applied) {
      const decile = total === 0 ? 10 : Math.floor((value / total) * 10);
      if (decile !== lastDecile) {
        lastDecile = decile;
        process.stderr.write(`${label}: ${Math.min(decile * 10, 100)}% (${value}/${total}, ${applied} applied)\n`);
      }
    },
    stop: () => undefined,
  };
}
