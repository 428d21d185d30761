import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { basename } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import type { FromThread, ThreadAnswer, ThreadSetup, ToThread } from './thread-messages.js';

/**
 * The body of a ThreadPool thread's entry module: runs each job it is sent
 * with `run`, one at a time (the pool sends a thread one job at a time), and
 * answers it. A job that throws is answered `failed`, and the thread goes on.
 */
export function serveThread<In, Out>(run: (input: In) => ThreadAnswer<Out> | Promise<ThreadAnswer<Out>>): void {
  const port = parentPort;
  if (!port) throw new Error('serveThread runs in a worker thread');
  const setup = workerData as Partial<ThreadSetup> | undefined;
  lowerPriority(setup?.niceness ?? 0);
  const idle = setup?.idle === true && idleScheduling();
  const send = (message: FromThread<Out>, transfer: ArrayBuffer[] = []) => port.postMessage(message, transfer);
  port.on('message', (message: ToThread<In>) => {
    if (message.kind !== 'run') return;
    const { id } = message;
    Promise.resolve()
      .then(() => run(message.input))
      .then(
        ({ output, transfer }) => send({ kind: 'done', id, output }, transfer),
        (error: unknown) => send({ kind: 'failed', id, error: error instanceof Error ? error.message : String(error) }),
      );
  });
  send({ kind: 'ready', idle });
}

/**
 * On Linux a thread has a niceness of its own, and setpriority(PRIO_PROCESS, 0)
 * — what os.setPriority(n) calls — sets the calling thread's alone. Elsewhere
 * (macOS, Windows) it would lower the whole process, main thread included, so
 * it is left alone there. Raising it back is not allowed without privilege,
 * which is fine: a pool's thread only ever lowers itself once.
 */
export function lowerPriority(niceness: number): void {
  if (process.platform !== 'linux' || !(niceness > 0)) return;
  try {
    setPriority(Math.min(19, niceness));
  } catch {
    // A sandbox that forbids it: the thread runs at the process's priority.
  }
}

/**
 * Puts the calling thread under Linux's SCHED_IDLE policy (docs/adr/0053): it
 * runs on a core nothing else wants, and any ordinary thread that wakes up
 * takes the core from it at once. A nice-10 thread still kept the core until
 * its slice ran out, while the event loop, woken by a request, waited.
 * Node has no sched_setscheduler, so util-linux's `chrt` sets it for this
 * thread (its id read from /proc/thread-self); any user may lower a thread's
 * policy. Answers whether it took; elsewhere, or without `chrt`, the thread
 * keeps its niceness alone.
 */
export function idleScheduling(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const thread = basename(readlinkSync('/proc/thread-self'));
    execFileSync('chrt', ['--idle', '--pid', '0', thread], { stdio: 'ignore', timeout: 5_000 });
    return true;
  } catch {
    return false;
  }
}
