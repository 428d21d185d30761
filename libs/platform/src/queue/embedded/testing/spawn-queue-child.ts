import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export interface QueueChild {
  readonly pid: number;
  /** Every stdout line so far. */
  readonly lines: string[];
  /** Resolves with the first line matching; rejects if the child exits first. */
  waitForLine(pattern: RegExp): Promise<string>;
  /** Sends SIGKILL and resolves once the process is gone (so its pid is no longer alive). */
  kill(): Promise<void>;
}

const register = fileURLToPath(new URL('../../../testing/register-ts.mjs', import.meta.url));
const child = fileURLToPath(new URL('./queue-child.ts', import.meta.url));

/** Runs ./queue-child.ts on `dir`, consuming `queue`, in a fresh `node` process. */
export function spawnQueueChild(dir: string, queue: string): QueueChild {
  const proc = spawn(process.execPath, ['--import', register, child, dir, queue], { stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: string[] = [];
  let stderr = '';
  let partial = '';
  let changed: () => void = () => undefined;
  const exited = new Promise<void>((resolve) => {
    proc.on('close', () => {
      changed();
      resolve();
    });
  });

  proc.stdout.setEncoding('utf8');
  proc.stdout.on('data', (chunk: string) => {
    const parts = (partial + chunk).split('\n');
    partial = parts.pop() ?? '';
    lines.push(...parts);
    changed();
  });
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (chunk: string) => {
    stderr += chunk;
  });

  return {
    pid: proc.pid!,
    lines,
    waitForLine(pattern) {
      return new Promise<string>((resolve, reject) => {
        // Bounds a broken adapter's hang; a healthy child answers within a second or two.
        const timer = setTimeout(() => reject(new Error(`child never printed ${pattern}; saw ${JSON.stringify(lines)}`)), 10_000);
        const check = () => {
          const line = lines.find((candidate) => pattern.test(candidate));
          if (line !== undefined) {
            clearTimeout(timer);
            resolve(line);
          } else if (proc.exitCode !== null || proc.signalCode !== null) {
            clearTimeout(timer);
            reject(new Error(`child exited before printing ${pattern}; stderr:\n${stderr}`));
          } else changed = check;
        };
        check();
      });
    },
    async kill() {
      proc.kill('SIGKILL');
      await exited;
    },
  };
}
