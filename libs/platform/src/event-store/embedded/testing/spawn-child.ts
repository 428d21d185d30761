import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface Ack {
  stream: string;
  revision: bigint;
  position: bigint;
}

export interface StoreChild {
  /** Appends the child reported as resolved, in the order it reported them. */
  readonly acks: Ack[];
  /** Every stdout line, for assertions on `done` and for failure messages. */
  readonly lines: string[];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Resolves once the child printed a line matching the predicate; rejects if it exits first. */
  until(predicate: () => boolean): Promise<void>;
  kill(signal: NodeJS.Signals): void;
}

const register = fileURLToPath(new URL('../../../testing/register-ts.mjs', import.meta.url));
const child = fileURLToPath(new URL('./event-store-child.ts', import.meta.url));

/** Runs ./event-store-child.ts in a fresh `node` process (see that file for modes and protocol). */
export function spawnStoreChild(args: string[]): StoreChild {
  const proc = spawn(process.execPath, ['--import', register, child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  const acks: Ack[] = [];
  const lines: string[] = [];
  let stderr = '';
  let waiters: Array<() => void> = [];
  let buffered = '';

  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    const complete = buffered.split('\n');
    buffered = complete.pop() ?? '';
    for (const line of complete) {
      lines.push(line);
      const [word, stream, revision, position] = line.split(' ');
      if (word === 'ack') acks.push({ stream, revision: BigInt(revision), position: BigInt(position) });
    }
    for (const wake of waiters) wake();
  });
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    // 'close', not 'exit': only then has all of the child's stdout (its last acks) been read.
    proc.on('close', (code, signal) => {
      for (const wake of waiters) wake();
      resolve({ code, signal });
    });
  });

  return {
    acks,
    lines,
    exited,
    kill: (signal) => proc.kill(signal),
    until(predicate) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (predicate()) {
            waiters = waiters.filter((w) => w !== check);
            resolve();
          } else if (proc.exitCode !== null || proc.signalCode !== null) {
            waiters = waiters.filter((w) => w !== check);
            reject(new Error(`child exited (${proc.exitCode ?? proc.signalCode}) first; stderr:\n${stderr}`));
          }
        };
        waiters.push(check);
        check();
      });
    },
  };
}

/**
 * Runs ./event-store-child.ts to completion while this process waits, its
 * event loop blocked: what the child commits lands in the middle of this
 * process's current event-loop turn. Throws unless the child exits with 0.
 */
export function runStoreChildSync(args: string[]): string[] {
  const result = spawnSync(process.execPath, ['--import', register, child, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`store child ${args.join(' ')} exited with ${result.status ?? result.signal}: ${result.stderr}`);
  return result.stdout.split('\n').filter((line) => line !== '');
}
