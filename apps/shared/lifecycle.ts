import type { INestApplicationContext } from '@nestjs/common';
import { closeBackends, LeaseKeeper, type Runtime } from '../../libs/platform/src/index.js';

let holding = false;
let held: string | undefined;
const hold = (signal: NodeJS.Signals) => {
  held ??= signal;
};

/**
 * A SIGTERM or SIGINT that arrives while the process starts is held until
 * handleShutdown takes over, which then stops at once: the default action
 * would kill the process in the middle of its start (no exit code, nothing
 * flushed), as an orchestrator stopping a slow-starting worker found.
 */
export function holdSignalsWhileStarting(): void {
  if (holding) return;
  holding = true;
  process.on('SIGTERM', hold);
  process.on('SIGINT', hold);
}

/**
 * SIGTERM/SIGINT: stop accepting and finish in-flight requests (`stopHttp`),
 * then let Nest run its destroy hooks (audit flush, projections, relay), then
 * close the backends; exit 0, or 1 if that takes longer than the deadline
 * (decisions.md: within 10 s).
 */
export function handleShutdown(runtime: Runtime, app: INestApplicationContext, stopHttp?: () => Promise<void>): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    runtime.readiness.markStopping();
    runtime.logger.info({ msg: 'shutting down', signal });
    const deadline = setTimeout(() => {
      runtime.logger.error({ msg: 'shutdown deadline passed; exiting' });
      process.exit(1);
    }, runtime.config.shutdownTimeoutMs);
    deadline.unref();
    try {
      await stopHttp?.();
      await app.close();
      // After the followers saved their checkpoints: a standby worker takes over at once.
      if (runtime.followers.gate instanceof LeaseKeeper) await runtime.followers.gate.stop();
      await closeBackends(runtime.backends);
      runtime.logger.info({ msg: 'stopped' });
      process.exit(0);
    } catch (error) {
      runtime.logger.error({ msg: 'shutdown failed', err: String(error) });
      process.exit(1);
    }
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
  if (holding) {
    process.off('SIGTERM', hold);
    process.off('SIGINT', hold);
    holding = false;
    if (held) void stop(held);
  }
}
